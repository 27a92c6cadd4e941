import { chains } from "@presend/shared/chains/chains";
import { authorizationTypes, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { describe, expect, it } from "vitest";
import { checkSignableTypedData, type SignableTypedData } from "./checkSignableTypedData";

const from = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const usdcDomain = {
  name: "USD Coin",
  version: "2",
  chainId: chains.base.id,
  verifyingContract: chains.base.usdc.address,
};
const authorization = {
  from,
  value: 10_000n,
  validAfter: 0n,
  validBefore: 1_900_000_000n,
  nonce: `0x${"11".repeat(32)}`,
};
const deposit: SignableTypedData = {
  domain: usdcDomain,
  types: { ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization },
  primaryType: "ReceiveWithAuthorization",
  message: { ...authorization, to: ERC3009_DEPOSIT_COLLECTOR_ADDRESS },
};
const exact: SignableTypedData = {
  domain: usdcDomain,
  types: authorizationTypes,
  primaryType: "TransferWithAuthorization",
  message: { ...authorization, to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
};
const both = ["TransferWithAuthorization", "ReceiveWithAuthorization"] as const;

describe("checkSignableTypedData", () => {
  it("lets through a deposit to the collector and an exact payment, on Base USDC, from the payer", () => {
    expect(checkSignableTypedData(deposit, { allowed: both, from })).toBeNull();
    expect(checkSignableTypedData(exact, { allowed: both, from })).toBeNull();
    expect(
      checkSignableTypedData(
        { ...deposit, domain: { ...usdcDomain, chainId: 8453n } },
        { allowed: ["ReceiveWithAuthorization"], from: from.toLowerCase() },
      ),
    ).toBeNull();
  });

  it("refuses a kind not allowed here (an exact payment through the channel's wallet)", () => {
    expect(checkSignableTypedData(exact, { allowed: ["ReceiveWithAuthorization"], from })).toMatch(
      /TransferWithAuthorization/,
    );
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
        message: {},
      },
    ],
    [
      "an EIP-2612 permit of USDC",
      {
        domain: usdcDomain,
        types: { Permit: [] },
        primaryType: "Permit",
        message: { owner: from, spender: from, value: 1n, nonce: 0n, deadline: 1n },
      },
    ],
    ["a deposit to another collector", { ...deposit, message: { ...deposit.message, to: from } }],
    ["a deposit on another chain", { ...deposit, domain: { ...usdcDomain, chainId: 84532 } }],
    [
      "a deposit of another token",
      {
        ...deposit,
        domain: { ...usdcDomain, verifyingContract: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2" },
      },
    ],
    [
      "a deposit from another account",
      { ...deposit, message: { ...deposit.message, from: ERC3009_DEPOSIT_COLLECTOR_ADDRESS } },
    ],
    [
      "a deposit with a struct riding along",
      { ...deposit, types: { ...deposit.types, Permit: [] } },
    ],
    [
      "a deposit with other fields",
      {
        ...deposit,
        types: { ReceiveWithAuthorization: [{ name: "spender", type: "address" }] },
      },
    ],
    [
      "a payment from another account",
      { ...exact, message: { ...exact.message, from: ERC3009_DEPOSIT_COLLECTOR_ADDRESS } },
    ],
  ])("refuses %s", (_, typedData) => {
    expect(checkSignableTypedData(typedData, { allowed: both, from })).toEqual(expect.any(String));
  });
});
