import { encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { readSettlement } from "./readSettlement";

const requirement: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  asset: baseUsdc,
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  maxTimeoutSeconds: 60,
  extra: {},
};
const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const transaction = `0x${"ab".repeat(32)}`;
const answer = (fields: Record<string, unknown>) =>
  new Response("{}", {
    headers: {
      "PAYMENT-RESPONSE": encodePaymentResponseHeader({
        success: true,
        transaction,
        network: baseNetwork,
        ...fields,
      } as never),
    },
  });

describe("readSettlement", () => {
  it("names the transaction and payer of a successful settlement, for the terms that were paid", () => {
    expect(readSettlement(answer({ payer }), requirement)).toEqual({
      transaction,
      network: baseNetwork,
      payer,
      amount: "10000",
      payTo: requirement.payTo,
    });
  });

  it("reads no settlement from a failure, a missing payer, a transaction that is no hash, or no header", () => {
    expect(readSettlement(answer({ payer, success: false }), requirement)).toBeNull();
    expect(readSettlement(answer({}), requirement)).toBeNull();
    expect(readSettlement(answer({ payer, transaction: "0x1234" }), requirement)).toBeNull();
    expect(readSettlement(new Response("{}"), requirement)).toBeNull();
  });
});
