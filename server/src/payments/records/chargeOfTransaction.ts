import type { Hex } from "viem";
import type { PaymentRecord, PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import type { PaymentChain } from "../facilitator/createPaymentChain";

/**
 * At most this many of a transaction's EIP-3009 transfers are looked up in the records: one
 * settlement of an `exact` payment makes one, and a transaction with more names no single
 * payment, so an unknown hash never costs more than this many indexed reads.
 */
export const maxTransfersLookedUp = 8;

/** What a transaction the records do not name charged here, as the chain shows it. */
export type TransactionCharge =
  /** It used this record's authorization to pay the record's payTo. */
  | { type: "record"; record: PaymentRecord; tx: Hex }
  /** A batch-settlement claim to this server's payTo: it settled checks of several payers. */
  | { type: "channel_claim" }
  /** It paid several recorded payments (or more transfers than are looked up). */
  | { type: "several" }
  /** Mined (or unknown to the chain) and no payment recorded here is in it. */
  | { type: "not_charged" }
  /** Not known: the chain could not be read, or the transaction is not mined yet. */
  | { type: "unknown"; reason: "unreadable" | "pending" };

/**
 * The charge a transaction made, for a payer who names it while no record carries it (its
 * settled mark was not written, or the settlement's answer was lost): its receipt's EIP-3009
 * transfers are matched to the records by authorization and by payTo. "Not charged" only when
 * the chain answered and shows none of this server's payments; a chain that cannot be read is
 * "unknown", never "not charged". A store that cannot be read throws.
 * @example const charge = await chargeOfTransaction({ store, chain, tx, payTo });
 */
export async function chargeOfTransaction(options: {
  store: Pick<PaymentRecordStore, "byAuthorization">;
  chain: Pick<PaymentChain, "paymentsIn">;
  tx: Hex;
  /** This server's payTo: a channel claim to it is one of its charges; unset, any claim is. */
  payTo?: string;
}): Promise<TransactionCharge> {
  const { store, chain, tx, payTo } = options;
  const payments = await chain.paymentsIn(tx).catch(() => null);
  if (payments === null) return { type: "unknown", reason: "unreadable" };
  if (payments.type === "pending") return { type: "unknown", reason: "pending" };
  if (payments.type === "absent") return { type: "not_charged" };
  const payee = payTo?.toLowerCase();
  if (payments.claimReceivers.some((receiver) => payee === undefined || receiver === payee)) {
    return { type: "channel_claim" };
  }
  if (payments.transfers.length > maxTransfersLookedUp) return { type: "several" };
  const charged: PaymentRecord[] = [];
  for (const transfer of payments.transfers) {
    const record = await store.byAuthorization(transfer);
    // The authorization is recorded here and its money went where the record asked for it.
    if (record !== undefined && record.payTo.toLowerCase() === transfer.to) charged.push(record);
  }
  const [record, ...others] = charged;
  if (record === undefined) return { type: "not_charged" };
  if (others.length > 0) return { type: "several" };
  return { type: "record", record, tx: tx.toLowerCase() as Hex };
}
