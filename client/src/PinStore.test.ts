import { describe, expect, it } from "vitest";
import { createMemoryPinStore, type PinRecord } from "./PinStore";

const pin: PinRecord = {
  jwk: {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    x: "Qwmv7pd5HQljkwIk5XalxT9ZkWvplHBitbONWVqwIks",
    y: "jlqdvHQ6xjp-JiNaqcz7iwyZeBXIMc1wdhoiSc12nlw",
    kid: "presend-2026-11",
  },
  fingerprint: "abc",
  pinnedAt: "2026-11-22T00:00:00.000Z",
  apiUrl: "http://127.0.0.1:8402",
};

describe("createMemoryPinStore", () => {
  it("keeps one pin per origin and refuses a record that is not a pin", async () => {
    const pins = createMemoryPinStore();
    await pins.set("http://127.0.0.1:8402", pin);
    expect(await pins.get("http://127.0.0.1:8402")).toEqual(pin);
    expect(await pins.get("http://other")).toBeUndefined();
    await expect(
      pins.set("http://x", { ...pin, jwk: { ...pin.jwk, kid: "evil" } }),
    ).rejects.toThrow();
  });
});
