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
 * Every record looked at is marked checked, decided or not: the next batch starts with the
 * records waiting longest, so records the chain cannot decide yet never hold back the rest.
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
  // Marked before deciding: a pass cut short (a crash, a chain read that hangs) still moves on.
  await records.markChecked(open);
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
 * authorization) when the token shows it used by a transfer; `failed` when the payer cancelled
 * it, when it is used by no transfer in any block where one could be (only a cancellation spends
 * a nonce so) once past its validBefore (plus the grace), or when it expired unused; otherwise
 * unchanged. Every read is bounded, so past the grace a readable chain always decides it. Both
 * moves are safe even while its request is still being served: the chain is the truth. Throws
 * when the chain cannot be read.
 * @example const record = await decidePayment({ records, chain, record: open });
 */
export async function decidePayment(options: {
  records: PaymentRecordStore;
  chain: PaymentChain;
  record: PaymentRecord;
  /** The chain's time (seconds), if already read. */
  now?: number;
}): Promise<PaymentRecord> {
  const { records, record } = options;
  const verdict = await judgePayment(options);
  return verdict === null ? record : ((await writeVerdict(records, record, verdict)) ?? record);
}

/** What the chain decides of an open record: charged by `tx`, never charged, or not yet (null). */
export type PaymentVerdict = { status: "settled"; tx: Hex } | { status: "failed" };

/**
 * The chain's decision on one open record, read and not written (decidePayment writes it): the
 * same rules, for a caller that must answer from the chain when the record cannot be written.
 * Throws when the chain cannot be read.
 */
export async function judgePayment(options: {
  chain: PaymentChain;
  record: PaymentRecord;
  now?: number;
}): Promise<PaymentVerdict | null> {
  const { chain, record } = options;
  const key = { payer: record.payer, nonce: record.nonce };
  const now = async () => options.now ?? (await chain.now());
  const failed = { status: "failed" } as const;
  if (await chain.authorizationUsed(record.payer, record.nonce)) {
    const tx = await transferOf(chain, key, record.tx as Hex | null, record.validBefore);
    if (tx !== null) return { status: "settled", tx };
    // Used without a transfer in its window: once the window is closed for good, that is a
    // cancellation wherever its event lies (a payer may cancel long after expiry, outside any
    // window worth searching). Before then, only the cancellation's own event proves it.
    if ((await now()) > record.validBefore + settleGraceSeconds) return failed;
    const since = record.validBefore - authorizationLookBackSeconds;
    if (await chain.authorizationCanceled(record.payer, record.nonce, since)) return failed;
    return null;
  }
  if ((await now()) > record.validBefore + settleGraceSeconds) return failed;
  return null;
}

/** Writes the chain's verdict to the record; the record as the store now has it. */
export function writeVerdict(
  records: Pick<PaymentRecordStore, "markSettled" | "markFailed">,
  record: PaymentRecord,
  verdict: PaymentVerdict,
): Promise<PaymentRecord | undefined> {
  const key = { payer: record.payer, nonce: record.nonce };
  return verdict.status === "settled"
    ? records.markSettled(key, verdict.tx)
    : records.markFailed(key);
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
  return transferOf(chain, key, candidate, validBefore).catch(() => null);
}

/**
 * The transaction that used the authorization: the candidate when its receipt says so, else the
 * AuthorizationUsed event's in the blocks where an EIP-3009 transfer of it can be (from the
 * look-back before validBefore to the last block before it); null when those blocks have none.
 * Throws when the logs cannot be read, so "not found" is never a failed read.
 */
async function transferOf(
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
  return chain.findAuthorizationTx(key.payer, key.nonce, since, validBefore);
}
