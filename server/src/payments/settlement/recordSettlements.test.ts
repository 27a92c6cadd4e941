import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { withPaymentRecords } from "../settlement/recordSettlements";

const record = samplePaymentRecord(1);
const requirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: record.asset,
  amount: record.amount,
  payTo: record.payTo,
  maxTimeoutSeconds: 60,
  extra: {},
} satisfies PaymentRequirements;
const payload = {
  x402Version: 2,
  accepted: requirements,
  payload: {
    signature: "0x",
    authorization: {
      from: record.payer,
      to: record.payTo,
      value: record.amount,
      validAfter: "0",
      validBefore: String(record.validBefore),
      nonce: record.nonce,
    },
  },
} as unknown as PaymentPayload;

/** A remote facilitator whose settle answered a failure it cannot explain. */
const failingFacilitator: FacilitatorClient = {
  verify: async () => ({ isValid: true, payer: record.payer }),
  settle: async (): Promise<SettleResponse> => ({
    success: false,
    errorReason: "invalid_transaction_state",
    transaction: "",
    network: "eip155:8453",
  }),
  getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
};

describe("withPaymentRecords: a settlement the chain shows used by no transfer", () => {
  it("is failed, nothing charged, when the payer cancelled the authorization", async () => {
    const records = createMemoryPaymentRecords();
    await records.begin(record);
    const chain = fakePaymentChain({
      now: record.validBefore - 30,
      used: new Map(),
      canceled: new Set([record.nonce]),
    });
    const settled = await withPaymentRecords(failingFacilitator, { records, chain }).settle(
      payload,
      requirements,
    );
    expect(settled).toMatchObject({
      success: false,
      errorReason: "authorization_canceled",
      transaction: "",
    });
    expect(await records.byAuthorization(record)).toMatchObject({ status: "failed" });
  });

  it("stays unknown when no cancellation is found either (the transfer may be out of sight)", async () => {
    const records = createMemoryPaymentRecords();
    await records.begin(record);
    const chain = fakePaymentChain({ now: record.validBefore - 30, used: new Map() });
    const usedOutOfSight = { ...chain, authorizationUsed: async () => true };
    const settled = await withPaymentRecords(failingFacilitator, {
      records,
      chain: usedOutOfSight,
    }).settle(payload, requirements);
    expect(settled).toMatchObject({ success: false, errorReason: "settlement_unknown" });
    expect(await records.byAuthorization(record)).toMatchObject({ status: "unknown" });
  });
});
