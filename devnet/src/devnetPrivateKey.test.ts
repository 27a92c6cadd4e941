import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { devnetPrivateKey } from "./devnetPrivateKey";

describe("devnetPrivateKey", () => {
  it("derives the same key for the same label and different keys for different labels", () => {
    expect(devnetPrivateKey("payer")).toBe(devnetPrivateKey("payer"));
    expect(devnetPrivateKey("payer")).not.toBe(devnetPrivateKey("pay-to"));
  });

  it("derives a usable secp256k1 key (32 bytes, accepted by viem)", () => {
    const key = devnetPrivateKey("payer");
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(privateKeyToAccount(key).address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});
