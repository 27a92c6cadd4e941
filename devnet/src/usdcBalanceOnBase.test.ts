import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { sharedPaymentWorld } from "./testing/sharedWorld";
import { usdcBalanceOnBase } from "./usdcBalanceOnBase";

describe("usdcBalanceOnBase", () => {
  it("reads what a transfer on the world's Base chain moved, in base units", async () => {
    const { world, fund } = sharedPaymentWorld();
    const usdc = usdcBalanceOnBase(world.chains.base);
    const someone = privateKeyToAccount(generatePrivateKey()).address;
    expect(await usdc(someone)).toBe(0n);
    await fund(someone, 1_234_567n);
    expect(await usdc(someone)).toBe(1_234_567n);
  });
});
