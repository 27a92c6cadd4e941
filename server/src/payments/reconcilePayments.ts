import type { Hex } from "viem";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import type { PaymentChain } from "./createPaymentChain";
import { settlementOf } from "./withPaymentRecords";

/** How long after validBefore the chain is given to show a transfer (blocks, clock skew). */
export const settleGraceSeconds = 60;

export type ReconcileResult = { settled: number; failed: number; open: number };

/**
 * Settles the open payment records from the chain, the source of truth: an authorization the
 * token shows used is `settled` (with the transaction that used it); one still unused after its
 * validBefore (plus a grace) can never be charged and is `failed`; anything else stays open.
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
    const expired = now > record.validBefore + settleGraceSeconds;
    if (record.status === "pending" && !expired) {
      result.open++;
      continue;
    }
    try {
      const key = { payer: record.payer, nonce: record.nonce };
      if (await chain.authorizationUsed(record.payer, record.nonce)) {
        const tx = await settlementOf(chain, key, record.tx as Hex | null);
        if (tx !== null) {
          await records.markSettled(key, tx);
          result.settled++;
          continue;
        }
      } else if (expired) {
        await records.markFailed(key);
        result.failed++;
        continue;
      }
    } catch {
      // Unreadable now: the next round tries again.
    }
    result.open++;
  }
  return result;
}
