import { describe, expect, it } from "vitest";
import { insufficientBalanceMessage } from "./insufficientBalanceMessage";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("insufficientBalanceMessage", () => {
  it("names the payer, the price and what to do for an exact payment", () => {
    expect(
      insufficientBalanceMessage("invalid_exact_evm_insufficient_balance", {
        payer,
        price: 10_000n,
      }),
    ).toBe(
      `The paying address ${payer} holds too little USDC on Base for this check's price of $0.01. The server refused the payment before settling it: nothing was charged. Send USDC on Base to ${payer}, then check again.`,
    );
  });

  it("names the deposit for a channel payment, and the smaller deposit that would do", () => {
    const said = insufficientBalanceMessage("invalid_batch_settlement_evm_insufficient_balance", {
      payer,
      price: 10_000n,
      deposit: 100_000n,
    });
    expect(said).toContain(
      "for the $0.10 payment channel deposit this check of $0.01 is paid from",
    );
    expect(said).toContain("or configure a smaller channel deposit (at least $0.01)");
  });

  it("is null for every other refusal", () => {
    expect(insufficientBalanceMessage("invalid_exact_evm_signature", { payer, price: 1n })).toBe(
      null,
    );
    expect(insufficientBalanceMessage(undefined, { payer, price: 1n })).toBe(null);
  });
});
