import { describe, expect, it } from "vitest";
import { captureCrypto } from "./captureCrypto";

describe("captureCrypto", () => {
  it("keeps the functions it found, whatever replaces them afterwards", async () => {
    const source = {
      subtle: crypto.subtle,
      getRandomValues: crypto.getRandomValues.bind(crypto),
    } as unknown as Crypto;
    const { subtle, randomId } = captureCrypto(source);
    // A page swapping in its own after capture.
    source.getRandomValues = (<T extends ArrayBufferView | null>(array: T) => array) as never;
    (source as { subtle: unknown }).subtle = {};
    const ids = new Set(Array.from({ length: 20 }, () => randomId()));
    expect(ids.size).toBe(20);
    // 16 random bytes each: too many to guess, not just distinct.
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    const key = await subtle.importKey(
      "raw",
      new Uint8Array(32),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    const signature = await subtle.sign("HMAC", key, new Uint8Array([1]));
    expect(await subtle.verify("HMAC", key, signature, new Uint8Array([1]))).toBe(true);
  });
});
