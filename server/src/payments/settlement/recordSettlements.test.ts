import { type FacilitatorClient, x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import type { PaymentChain } from "../facilitator/createPaymentChain";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { guardedFacilitator } from "../facilitator/guardedFacilitator";
import { createPaymentRecords, type PaymentRecords } from "../records/paymentRecords";
import { recordSettlements } from "./recordSettlements";

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

const transfer = `0x${"ab".repeat(32)}` as Hex;

/** A remote facilitator (it cannot say what it broadcast) whose settle does `settle`. */
function remoteFacilitator(settle: () => Promise<SettleResponse>): FacilitatorClient {
  return {
    verify: async () => ({ isValid: true, payer: record.payer }),
    settle,
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  };
}

/** A failure it cannot explain, answered before or after sending: it does not say. */
const unexplainedFailure = async (): Promise<SettleResponse> => ({
  success: false,
  errorReason: "invalid_transaction_state",
  errorMessage: "upstream said: https://rpc.internal/key",
  transaction: "",
  network: "eip155:8453",
});

/**
 * One settlement through x402's resource server with presend's facilitator guard and settle
 * hooks, against a record begun as the paid route's handler begins it.
 */
async function settleThrough(
  facilitator: FacilitatorClient,
  chain: PaymentChain,
  broadcastFor?: (payer: string, nonce: string) => Hex | null | undefined,
  begin: (records: PaymentRecords) => Promise<unknown> = (records) => records.begin(record),
) {
  const store = createMemoryPaymentRecords();
  const records = createPaymentRecords({ store, chain });
  await begin(records);
  const server = new x402ResourceServer(guardedFacilitator(facilitator, { chain })).register(
    "eip155:8453",
    new ExactEvmScheme(),
  );
  recordSettlements(server, {
    records,
    chain,
    onError: () => {},
    ...(broadcastFor && { broadcastFor }),
  });
  const answer = await server.settlePayment(payload, requirements);
  return { answer, stored: await records.byAuthorization(record) };
}

const before = (overrides: Partial<Parameters<typeof fakePaymentChain>[0]> = {}) =>
  fakePaymentChain({ now: record.validBefore - 30, used: new Map(), ...overrides });

describe("recordSettlements: every settlement of an authorization ends in its record", () => {
  it("is settled with the transaction the facilitator answered", async () => {
    const { answer, stored } = await settleThrough(
      remoteFacilitator(async () => ({
        success: true,
        transaction: transfer,
        network: "eip155:8453",
        payer: record.payer,
      })),
      before({ used: new Map([[record.nonce, transfer]]) }),
    );
    expect(answer).toMatchObject({ success: true, transaction: transfer });
    expect(stored).toMatchObject({ status: "settled", tx: transfer });
  });

  it("is settled from the chain when the facilitator's answer is lost; the ledger answers the report from the record", async () => {
    const { answer, stored } = await settleThrough(
      remoteFacilitator(async () => {
        throw new Error("socket hang up at https://facilitator.internal");
      }),
      before({ used: new Map([[record.nonce, transfer]]) }),
    );
    expect(answer).toMatchObject({ success: false, transaction: transfer });
    expect(JSON.stringify(answer)).not.toContain("internal");
    expect(stored).toMatchObject({ status: "settled", tx: transfer });
  });

  it("asks the chain when the facilitator claims success naming no transaction: the record holds the transfer", async () => {
    const { stored } = await settleThrough(
      remoteFacilitator(async () => ({
        success: true,
        transaction: "",
        network: "eip155:8453",
        payer: record.payer,
      })),
      before({ used: new Map([[record.nonce, transfer]]) }),
    );
    expect(stored).toMatchObject({ status: "settled", tx: transfer });
    // Nor is such a claim a refusal: with nothing on chain yet, the outcome stays open.
    const { stored: notYet } = await settleThrough(
      remoteFacilitator(async () => ({ success: true, transaction: "", network: "eip155:8453" })),
      before(),
    );
    expect(notYet).toMatchObject({ status: "unknown" });
  });

  it("stays unknown, never failed, when a remote facilitator did not answer and the chain shows nothing yet", async () => {
    const { answer, stored } = await settleThrough(
      remoteFacilitator(async () => {
        throw new Error("timeout");
      }),
      before(),
    );
    expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
    expect(stored).toMatchObject({ status: "unknown" });
  });

  it("is failed when a remote facilitator answered a refusal naming no transaction, without its upstream text", async () => {
    const { answer, stored } = await settleThrough(remoteFacilitator(unexplainedFailure), before());
    expect(answer).toEqual({
      success: false,
      errorReason: "invalid_transaction_state",
      transaction: "",
      network: "eip155:8453",
    });
    expect(stored).toMatchObject({ status: "failed" });
  });
  it("sends nothing for an authorization that has no pending record", async () => {
    let sent = 0;
    const counting = remoteFacilitator(async () => {
      sent++;
      return { success: true, transaction: transfer, network: "eip155:8453" };
    });
    await expect(
      settleThrough(counting, before(), undefined, async () => {}),
    ).rejects.toMatchObject({ errorReason: "payment_not_recorded" });
    expect(sent).toBe(0);
  });

  it("sends nothing for an authorization whose record is already decided, so it is never settled twice", async () => {
    let sent = 0;
    const counting = remoteFacilitator(async () => {
      sent++;
      return { success: true, transaction: transfer, network: "eip155:8453" };
    });
    // Settled, or open with a settlement already sent (unknown), or proven not charged (failed,
    // its payer told so): a second settlement would charge again or charge what was refused.
    const decidedBefore: Record<string, (records: PaymentRecords) => Promise<unknown>> = {
      settled: (records) => records.markSettled(record, transfer),
      unknown: (records) => records.markUnknown(record, transfer),
      failed: (records) => records.markFailed(record),
    };
    for (const [status, decide] of Object.entries(decidedBefore)) {
      const begun = async (records: PaymentRecords) => {
        await records.begin(record);
        await decide(records);
        expect(await records.byAuthorization(record)).toMatchObject({ status });
      };
      await expect(settleThrough(counting, before(), undefined, begun)).rejects.toMatchObject({
        errorReason: "payment_not_recorded",
      });
    }
    expect(sent).toBe(0);
  });

  it("is failed, nothing charged, when the transaction the in-process facilitator broadcast reverted", async () => {
    const chain = before();
    const reverted = { ...chain, receiptStatus: async () => "reverted" as const };
    const { answer, stored } = await settleThrough(
      remoteFacilitator(async () => {
        throw new Error("timeout");
      }),
      reverted,
      () => transfer,
    );
    expect(answer).toMatchObject({ success: false, errorReason: "settlement_failed" });
    expect(stored).toMatchObject({ status: "failed" });
  });

  it("stays unknown, never failed, when the in-process facilitator's broadcast has no receipt yet or its receipt cannot be read", async () => {
    // Not mined yet (no receipt) or unreadable: the broadcast may still transfer, so only a
    // reverted receipt proves nothing was charged.
    const notMined = { ...before(), receiptStatus: async () => null };
    const unreadable = {
      ...before(),
      receiptStatus: async (): Promise<null> => {
        throw new Error("receipt read timed out");
      },
    };
    for (const chain of [notMined, unreadable]) {
      const { answer, stored } = await settleThrough(
        remoteFacilitator(async () => {
          throw new Error("timeout");
        }),
        chain,
        () => transfer,
      );
      expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
      expect(stored).toMatchObject({ status: "unknown", tx: transfer });
    }
  });

  it("stays unknown, never failed, when the in-process facilitator no longer knows the authorization", async () => {
    // Its broadcasts are forgotten a while after each settlement: not knowing one proves nothing,
    // even beside a refusal that names no transaction.
    for (const facilitator of [
      remoteFacilitator(unexplainedFailure),
      remoteFacilitator(async () => {
        throw new Error("timeout");
      }),
    ]) {
      const { answer, stored } = await settleThrough(facilitator, before(), () => undefined);
      expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
      expect(stored).toMatchObject({ status: "unknown" });
    }
  });

  it("keeps the outcome open, never an exception, when deciding it fails unexpectedly", async () => {
    const { answer, stored } = await settleThrough(
      remoteFacilitator(unexplainedFailure),
      before(),
      () => {
        throw new Error("the in-process facilitator's books are gone");
      },
    );
    expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
    expect(stored).toMatchObject({ status: "unknown" });
  });
});

describe("recordSettlements: a settlement the chain shows used by no transfer", () => {
  it("is failed, nothing charged, when the payer cancelled the authorization", async () => {
    const { answer, stored } = await settleThrough(
      remoteFacilitator(unexplainedFailure),
      before({ canceled: new Set([record.nonce]) }),
    );
    expect(answer).toMatchObject({
      success: false,
      errorReason: "authorization_canceled",
      transaction: "",
    });
    expect(stored).toMatchObject({ status: "failed" });
  });

  it("stays unknown when no cancellation is found either (the transfer may be out of sight)", async () => {
    const chain = before();
    const usedOutOfSight = { ...chain, authorizationUsed: async () => true };
    const { answer, stored } = await settleThrough(
      remoteFacilitator(unexplainedFailure),
      usedOutOfSight,
    );
    expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
    expect(stored).toMatchObject({ status: "unknown" });
  });

  it("stays unknown when the cancellation cannot be read: an unread log is no proof of a cancellation", async () => {
    const chain = before();
    const cancellationUnreadable: PaymentChain = {
      ...chain,
      authorizationUsed: async () => true,
      authorizationCanceled: async () => {
        throw new Error("log_search_exhausted");
      },
    };
    const { answer, stored } = await settleThrough(
      remoteFacilitator(unexplainedFailure),
      cancellationUnreadable,
    );
    expect(answer).toMatchObject({ success: false, errorReason: "settlement_unknown" });
    expect(stored).toMatchObject({ status: "unknown" });
  });
});
