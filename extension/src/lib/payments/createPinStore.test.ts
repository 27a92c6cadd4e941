import type { PinRecord } from "@presend/client";
import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import { type PinnedKeys, PinnedKeysSchema } from "../storage/schemas";
import { createPinStore } from "./createPinStore";

const pin = (apiUrl: string, fingerprint: string): PinRecord => ({
  jwk: { kty: "EC", crv: "P-256", x: "x", y: "y", kid: "k" } as PinRecord["jwk"],
  fingerprint,
  pinnedAt: "2025-06-01T12:00:00.000Z",
  apiUrl,
});

describe("createPinStore", () => {
  it("keeps one pin per API origin: another origin is pinned anew", async () => {
    const item = memoryItem<PinnedKeys>({});
    const store = createPinStore(item);
    await store.set("http://a.test", pin("http://a.test", "fa"));
    await store.set("http://b.test", pin("http://b.test", "fb"));
    expect((await store.get("http://a.test"))?.fingerprint).toBe("fa");
    expect((await store.get("http://b.test"))?.fingerprint).toBe("fb");
    expect(await store.get("http://c.test")).toBeUndefined();
    expect(Object.keys(item.value())).toEqual(["http://a.test", "http://b.test"]);
  });

  it("throws when the pins cannot be read, never answering 'nothing pinned'", async () => {
    const item = memoryItem<PinnedKeys>({});
    item.getValue = async () => {
      throw new Error("unreadable");
    };
    await expect(createPinStore(item).get("http://a.test")).rejects.toThrow("unreadable");
  });

  it("keeps every pin when two are written at once (updates run one after the other)", async () => {
    const item = memoryItem<PinnedKeys>({ "http://old.test": pin("http://old.test", "f0") });
    const store = createPinStore(item);
    await Promise.all([
      store.set("http://a.test", pin("http://a.test", "fa")),
      store.set("http://b.test", pin("http://b.test", "fb")),
    ]);
    expect(Object.keys(item.value()).sort()).toEqual([
      "http://a.test",
      "http://b.test",
      "http://old.test",
    ]);
  });

  it("keeps the keys a pin replaced through the storage schema, so reports paid before a rotation still verify", async () => {
    const item = memoryItem<PinnedKeys>({});
    const store = createPinStore(item);
    const valid = {
      kty: "EC",
      crv: "P-256",
      alg: "ES256",
      use: "sig",
      x: "Qwmv7pd5HQljkwIk5XalxT9ZkWvplHBitbONWVqwIks",
      y: "jlqdvHQ6xjp-JiNaqcz7iwyZeBXIMc1wdhoiSc12nlw",
    } as const;
    const moved: PinRecord = {
      ...pin("http://a.test", "f2"),
      jwk: { ...valid, kid: "presend-2026-07" },
      previous: [
        {
          jwk: { ...valid, kid: "presend-2026-01" },
          fingerprint: "f1",
          until: "2026-07-01T00:00:00.000Z",
        },
      ],
    };
    await store.set("http://a.test", moved);
    expect(await store.get("http://a.test")).toEqual(moved);
    expect(PinnedKeysSchema.parse(item.value())["http://a.test"]?.previous).toEqual(moved.previous);
  });
});
