import { baseUsdc, type SignableTypedData } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { authorizationTypes, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { describe, expect, it } from "vitest";
import { guardWalletTypedData } from "./guardWalletTypedData";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const usdc = { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: baseUsdc };
const authorization = {
  from: payer,
  value: 50_000n,
  validAfter: 0n,
  validBefore: 1_900_000_000n,
  nonce: `0x${"ab".repeat(32)}`,
};
const exact: SignableTypedData = {
  domain: usdc,
  types: authorizationTypes,
  primaryType: "TransferWithAuthorization",
  message: { ...authorization, to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
};
const deposit: SignableTypedData = {
  domain: usdc,
  types: { ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization },
  primaryType: "ReceiveWithAuthorization",
  message: { ...authorization, to: ERC3009_DEPOSIT_COLLECTOR_ADDRESS },
};

describe("guardWalletTypedData", () => {
  it("lets an exact payment and a deposit to the collector through to the wallet", () => {
    expect(() => guardWalletTypedData(exact, payer)).not.toThrow();
    expect(() => guardWalletTypedData(deposit, payer)).not.toThrow();
  });

  it.each<[string, SignableTypedData]>([
    [
      "a Permit2 deposit",
      {
        domain: {
          name: "Permit2",
          chainId: 8453,
          verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
        },
        types: { PermitWitnessTransferFrom: [] },
        primaryType: "PermitWitnessTransferFrom",
        message: { spender: "0x4020425FAf3B746C082C2f942b4E5159887B0005" },
      },
    ],
    [
      "an EIP-2612 permit of USDC",
      {
        domain: usdc,
        types: { Permit: [] },
        primaryType: "Permit",
        message: { owner: payer, spender: payer, value: 1n, nonce: 0n, deadline: 1n },
      },
    ],
    [
      "a payment from another account",
      {
        ...exact,
        message: { ...exact.message, from: "0x90F79bf6EB2c4f870365E785982E1f101E93b906" },
      },
    ],
    ["a deposit to another address", { ...deposit, message: { ...deposit.message, to: payer } }],
    ["a deposit on Base Sepolia", { ...deposit, domain: { ...usdc, chainId: 84532 } }],
    [
      "a deposit of another token",
      {
        ...deposit,
        domain: { ...usdc, verifyingContract: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2" },
      },
    ],
  ])("refuses %s with a stable code, before the wallet is asked", (_, typedData) => {
    let thrown: unknown;
    try {
      guardWalletTypedData(typedData, payer);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PaymentError);
    expect(thrown).toMatchObject({ code: "unexpected_typed_data" });
  });
});
