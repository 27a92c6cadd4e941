import { describe, expect, it } from "vitest";
import type { PinRecord, PinStore } from "../PinStore";

/** A valid pin record for tests (a real P-256 public key). */
export const samplePin: PinRecord = {
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

/**
 * The behaviour every PinStore must have. An implementation's test calls this with a factory
 * that opens an empty store and a way to open the same pins again (the same store when it lives
 * in memory).
 * @example describePinStore("memory", () => { const store = createMemoryPinStore(); return { store, reopen: () => store }; });
 */
export function describePinStore(
  name: string,
  open: () => { store: PinStore; reopen: () => PinStore },
): void {
  describe(`PinStore contract: ${name}`, () => {
    it("keeps one pin per origin, across opens", async () => {
      const { store, reopen } = open();
      expect(await store.get("http://127.0.0.1:8402")).toBeUndefined();
      await store.set("http://127.0.0.1:8402", samplePin);
      await store.set("https://presend.example", { ...samplePin, fingerprint: "def" });
      await store.set("https://presend.example", { ...samplePin, fingerprint: "ghi" });
      const again = reopen();
      expect(await again.get("http://127.0.0.1:8402")).toEqual(samplePin);
      expect((await again.get("https://presend.example"))?.fingerprint).toBe("ghi");
      expect(await again.get("https://other.example")).toBeUndefined();
    });

    it("keeps the keys a pin replaced, with the time each handed over", async () => {
      const { store, reopen } = open();
      const moved: PinRecord = {
        ...samplePin,
        jwk: { ...samplePin.jwk, kid: "presend-2027-05" },
        previous: [{ jwk: samplePin.jwk, fingerprint: "abc", until: "2027-05-01T00:00:00.000Z" }],
      };
      await store.set("https://rotated.example", moved);
      expect(await reopen().get("https://rotated.example")).toEqual(moved);
    });

    it("refuses a record that is not a pin, and keeps what it had", async () => {
      const { store, reopen } = open();
      await store.set("http://x", samplePin);
      await expect(
        store.set("http://x", { ...samplePin, jwk: { ...samplePin.jwk, kid: "evil" } }),
      ).rejects.toThrow();
      await expect(
        store.set("http://y", { ...samplePin, fingerprint: 7 } as unknown as PinRecord),
      ).rejects.toThrow();
      expect(await reopen().get("http://x")).toEqual(samplePin);
      expect(await reopen().get("http://y")).toBeUndefined();
    });
  });
}
