import type { Hex } from "viem";
import {
  noValidBeforeBound,
  type PaymentRecord,
  type PaymentRecordStore,
} from "../../paymentRecords/paymentRecordStore";
import { authorizationLookBackSeconds, type PaymentChain } from "../facilitator/createPaymentChain";

/**
 * How long after validBefore the chain is given to show a transfer (blocks, clock skew): the one
 * definition, read by the reconciler, the retry of a payment id and every "known by" time.
 */
export const settleGraceSeconds = 60;

/** The time by which an open record is decided either way (ISO), as answers promise it. */
export function decidedBy(record: Pick<PaymentRecord, "validBefore">): string {
  return new Date((record.validBefore + settleGraceSeconds) * 1000).toISOString();
}

export type ReconcileResult = { settled: number; failed: number; open: number };

/**
 * Settles the open payment records from the chain, the source of truth: an authorization the
 * token shows used is `settled` (with the transaction that used it); one the payer cancelled, or
 * one still unused after its validBefore (plus a grace), can never be charged and is `failed`;
 * anything else stays open.
 * A pending record younger than its validBefore belongs to a request still being served.
 * Nothing is changed when the chain cannot be read.
 * Only records that expire (an EIP-3009 authorization's validBefore) are read here, in a bounded
 * batch of their own: channel payments' records, decided by the claim that covers them
 * (`claimDecidedFrom` on), are the channel reconciler's, so however many of them wait for a
 * claim they never take this batch's places.
 * @example await reconcilePayments({ records, chain, claimDecidedFrom });
 */
export async function reconcilePayments(options: {
  records: PaymentRecordStore;
  chain: PaymentChain;
  limit?: number;
  /** The validBefore from which a record is decided by a channel claim, not by time. */
  claimDecidedFrom?: number;
}): Promise<ReconcileResult> {
  const { records, chain } = options;
  const result: ReconcileResult = { settled: 0, failed: 0, open: 0 };
  const open = await records.unresolved(options.limit ?? 200, {
    validBeforeBelow: options.claimDecidedFrom ?? noValidBeforeBound,
  });
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

/**
 * The transaction that used an authorization the chain shows used: the candidate when its
 * receipt says so, else the AuthorizationUsed event's; null when neither can be read.
 */
export async function settlementOf(
  chain: PaymentChain,
  key: { payer: string; nonce: string },
  candidate: Hex | null,
  validBefore: number,
): Promise<Hex | null> {
  if (candidate !== null) {
    const status = await chain.receiptStatus(candidate).catch(() => null);
    if (status === "success") return candidate;
  }
  const since = validBefore - authorizationLookBackSeconds;
  return chain.findAuthorizationTx(key.payer, key.nonce, since).catch(() => null);
}
