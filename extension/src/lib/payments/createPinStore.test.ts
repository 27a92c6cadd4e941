import type { PinRecord } from "@presend/client";
import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import type { PinnedKeys } from "../storage/schemas";
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
});
