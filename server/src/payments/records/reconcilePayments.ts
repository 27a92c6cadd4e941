import type { Hex } from "viem";
import type { PaymentRecord, PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import { authorizationLookBackSeconds, type PaymentChain } from "../facilitator/createPaymentChain";
import { settlementOf } from "../settlement/recordSettlements";

/** How long after validBefore the chain is given to show a transfer (blocks, clock skew). */
export const settleGraceSeconds = 60;

export type ReconcileResult = { settled: number; failed: number; open: number };

/**
 * Settles the open payment records from the chain, the source of truth: an authorization the
 * token shows used is `settled` (with the transaction that used it); one the payer cancelled, or
 * one still unused after its validBefore (plus a grace), can never be charged and is `failed`;
 * anything else stays open.
 * A pending record younger than its validBefore belongs to a request still being served.
 * Nothing is changed when the chain cannot be read.
 * @example await reconcilePayments({ records, chain });
 */
export async function reconcilePayments(options: {
  records: PaymentRecordStore;
  chain: PaymentChain;
  limit?: number;
}): Promise<ReconcileResult> {
  const { records, chain } = options;
  const result: ReconcileResult = { settled: 0, failed: 0, open: 0 };
  const open = await records.unresolved(options.limit ?? 200);
  if (open.length === 0) return result;
  let now: number;
  try {
    now = await chain.now();
  } catch {
    return { ...result, open: open.length };
  }
  for (const record of open) {
    if (record.status === "pending" && now <= record.validBefore + settleGraceSeconds) {
      result.open++;
      continue;
    }
    const decided = await decidePayment({ records, chain, record, now }).catch(() => record);
    if (decided.status === "settled") result.settled++;
    else if (decided.status === "failed") result.failed++;
    else result.open++;
  }
  return result;
}

/**
 * Decides one open record from the chain now: `settled` (with the transaction that used the
 * authorization) when the token shows it used, `failed` when the payer cancelled it or once it is
 * expired unused (plus the grace), otherwise unchanged. Both moves are safe even while its request is still being served:
 * the chain is the truth. Throws when the chain cannot be read.
 * @example const record = await decidePayment({ records, chain, record: open });
 */
export async function decidePayment(options: {
  records: PaymentRecordStore;
  chain: PaymentChain;
  record: PaymentRecord;
  /** The chain's time (seconds), if already read. */
  now?: number;
}): Promise<PaymentRecord> {
  const { records, chain, record } = options;
  const key = { payer: record.payer, nonce: record.nonce };
  if (await chain.authorizationUsed(record.payer, record.nonce)) {
    const tx = await settlementOf(chain, key, record.tx as Hex | null, record.validBefore);
    if (tx !== null) return (await records.markSettled(key, tx)) ?? record;
    // Used without a transfer: the payer cancelled it, which spends the nonce for good.
    const since = record.validBefore - authorizationLookBackSeconds;
    if (await chain.authorizationCanceled(record.payer, record.nonce, since)) {
      return (await records.markFailed(key)) ?? record;
    }
    return record;
  }
  const now = options.now ?? (await chain.now());
  if (now > record.validBefore + settleGraceSeconds) {
    return (await records.markFailed(key)) ?? record;
  }
  return record;
}
