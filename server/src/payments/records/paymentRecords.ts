import type { Hex } from "viem";
import type {
  AuthorizationKey,
  NewPaymentRecord,
  PaymentRecord,
  PaymentRecordStore,
} from "../../paymentRecords/paymentRecordStore";
import type { PaymentChain } from "../facilitator/createPaymentChain";
import { chargeOfTransaction, type TransactionCharge } from "./chargeOfTransaction";
import {
  decidedBy,
  decidePayment,
  judgePayment,
  type PaymentVerdict,
  type ReconcileResult,
  reconcilePayments,
  writeVerdict,
} from "./reconcilePayments";

export {
  AuthorizationAlreadyRecorded,
  normalizeKey,
} from "../../paymentRecords/paymentRecordStore";
export type { AuthorizationKey, NewPaymentRecord, PaymentRecord, TransactionCharge };

/**
 * What a record says to whoever asks for its report (a retried payment id, a lost answer,
 * `/receipts`): the report and its transaction, an outcome still open (known either way by
 * `decidedBy`, or at a channel's next claim), or proven not charged.
 */
export type RecordAnswer =
  | { type: "report"; record: PaymentRecord; tx: string }
  | {
      type: "open";
      record: PaymentRecord;
      decidedBy: string;
      /** `decidedBy` has passed: the chain could not be read to decide it when asked. */
      overdue: boolean;
    }
  | { type: "awaiting_claim"; record: PaymentRecord }
  | { type: "not_charged"; record: PaymentRecord };

/**
 * The one owner of the payment record: every write goes through here. The paid route's handler
 * begins it (`pending`, with the report), the settlement step marks it `settled`, `unknown` or
 * `failed` as the facilitator or the chain says, the reconciler and a retried payment id decide
 * an open one from the chain, and the report's first signature is kept with it. Reads are the
 * store's, and `answerOf` says what a record answers.
 */
export type PaymentRecords = {
  /** Writes the paid request and its report as `pending`; throws AuthorizationAlreadyRecorded. */
  begin(record: NewPaymentRecord): Promise<PaymentRecord>;
  /** The transfer is on chain in `tx`. */
  markSettled(key: AuthorizationKey, tx: string): Promise<PaymentRecord | undefined>;
  /** Settlement was sent and its outcome cannot be read; `candidate` is the broadcast, if known. */
  markUnknown(key: AuthorizationKey, candidate: string | null): Promise<PaymentRecord | undefined>;
  /** Proven not charged. */
  markFailed(key: AuthorizationKey): Promise<PaymentRecord | undefined>;
  /** Keeps the signature a settled report was first answered with (the first one stays). */
  keepReportSignature(key: AuthorizationKey, signature: string): Promise<PaymentRecord | undefined>;
  byAuthorization(key: AuthorizationKey): Promise<PaymentRecord | undefined>;
  byPaymentId(paymentId: string): Promise<PaymentRecord | undefined>;
  byTransaction(tx: string): Promise<PaymentRecord | undefined>;
  /**
   * For a transaction no record carries (its settled mark was not written, or the settlement's
   * answer was lost): what it charged here, read from its receipt on chain and matched to the
   * records by authorization. Never "not charged" unless the chain says so.
   */
  byChainTransaction(tx: Hex): Promise<TransactionCharge>;
  /**
   * Whether the record is a channel payment's: its transaction is the claim that settled every
   * voucher it covered, so that transaction names no single record.
   */
  paidOverChannel(record: PaymentRecord): boolean;
  /**
   * An open (`pending` or `unknown`) record decided from the chain now, as far as the chain
   * tells; any other record as it is. Throws when the chain cannot be read.
   */
  decide(record: PaymentRecord): Promise<PaymentRecord>;
  /** Decides the open records of `exact` payments from the chain, one bounded batch. */
  reconcile(limit?: number): Promise<ReconcileResult>;
  /** What a record answers for its report. */
  answerOf(record: PaymentRecord): RecordAnswer;
  /**
   * What a record answers for its report now: an open one is decided from the chain first, so a
   * charge the chain shows is answered at once (its record's mark may have been lost) and a
   * promise that passed is kept rather than repeated. `overdue` when the chain could not be read
   * to decide it past its `decidedBy`. `chargedBy`: a transaction the chain already showed using
   * this record's authorization (byChainTransaction): the record is settled by it, no more read.
   */
  answerNow(record: PaymentRecord, chargedBy?: Hex): Promise<RecordAnswer>;
};

export type PaymentRecordsOptions = {
  store: PaymentRecordStore;
  /** Base as the records read it: the authorization's state, receipts, AuthorizationUsed logs. */
  chain: PaymentChain;
  /**
   * The validBefore from which a record belongs to a channel payment: decided by the claim that
   * covers it (the channel reconciler), never by time.
   */
  claimDecidedFrom?: number;
  /** Where a decision the chain made but the store could not keep is reported (the server's log). */
  onUnwritten?: (error: unknown) => void;
  /** This server's payTo: which batch-settlement claims are its own (byChainTransaction). */
  payTo?: string;
};

/**
 * @example const records = createPaymentRecords({ store, chain, claimDecidedFrom: channelRecordValidBefore });
 */
export function createPaymentRecords(options: PaymentRecordsOptions): PaymentRecords {
  const { store, chain, claimDecidedFrom, onUnwritten, payTo } = options;
  const awaitsClaim = (record: PaymentRecord) =>
    claimDecidedFrom !== undefined && record.validBefore >= claimDecidedFrom;
  const answerOf = (record: PaymentRecord): RecordAnswer => {
    if (record.status === "settled" && record.tx !== null) {
      return { type: "report", record, tx: record.tx };
    }
    if (record.status === "failed") return { type: "not_charged", record };
    if (awaitsClaim(record)) return { type: "awaiting_claim", record };
    const by = decidedBy(record);
    return { type: "open", record, decidedBy: by, overdue: Date.now() > Date.parse(by) };
  };
  const decide = async (record: PaymentRecord): Promise<PaymentRecord> => {
    if (record.status !== "pending" && record.status !== "unknown") return record;
    if (awaitsClaim(record)) return record;
    return decidePayment({ records: store, chain, record });
  };
  return {
    begin: (record) => store.begin(record),
    markSettled: (key, tx) => store.markSettled(key, tx),
    markUnknown: (key, candidate) => store.markUnknown(key, candidate),
    markFailed: (key) => store.markFailed(key),
    keepReportSignature: (key, signature) => store.keepReportSignature(key, signature),
    byAuthorization: (key) => store.byAuthorization(key),
    byPaymentId: (paymentId) => store.byPaymentId(paymentId),
    byTransaction: (tx) => store.byTransaction(tx),
    byChainTransaction: (tx) =>
      chargeOfTransaction({ store, chain, tx, ...(payTo !== undefined && { payTo }) }),
    paidOverChannel: awaitsClaim,
    decide,
    reconcile: (limit) =>
      reconcilePayments({
        records: store,
        chain,
        ...(limit !== undefined && { limit }),
        ...(claimDecidedFrom !== undefined && { claimDecidedFrom }),
      }),
    answerOf,
    async answerNow(record, chargedBy) {
      const answer = answerOf(record);
      // A transaction the chain showed using the authorization settles any record that does not
      // say so yet (a failed one too: the chain is the truth).
      const shown = chargedBy !== undefined && answer.type !== "report";
      if (!shown && answer.type !== "open") return answer;
      // The payer asking gets the chain's answer as soon as the chain has one: a used
      // authorization is a charge, whose report is theirs now; a non-charge is only decided once
      // the promised time has passed. An unreadable chain leaves the record as it is.
      const verdict: PaymentVerdict | null = shown
        ? { status: "settled", tx: chargedBy }
        : await judgePayment({ chain, record }).catch(() => null);
      if (verdict === null) return answer;
      // The chain's word stands even when the store takes no writes (a read-only database after
      // a failover, a full disk): a charged payer gets the report kept in the record now, and
      // the record is marked once the store takes writes again (the next ask, or the reconciler).
      const written = await writeVerdict(store, record, verdict).catch((error: unknown) => {
        onUnwritten?.(error);
        return undefined;
      });
      return answerOf(
        written ??
          (verdict.status === "settled"
            ? { ...record, status: "settled", tx: verdict.tx.toLowerCase() }
            : { ...record, status: "failed" }),
      );
    },
  };
}
