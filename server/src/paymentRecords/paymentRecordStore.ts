import { addressPattern } from "@presend/shared/address/addressPattern";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";

const Address = z.string().regex(addressPattern);
const Bytes32 = z.string().regex(bytes32Pattern);
/** A settlement transaction hash, as markSettled takes it. */
export const TransactionHashSchema = Bytes32;

/**
 * Where a paid request stands. `pending`: recorded with its report, settlement not yet sent or
 * not yet answered. `settled`: the transfer is on chain (tx known). `unknown`: settlement was
 * attempted and its outcome could not be read; the reconciler asks the chain later. `failed`:
 * the chain proves the authorization was never used and can no longer be (nothing charged).
 */
export const paymentStatuses = ["pending", "settled", "unknown", "failed"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** The key of a payment: one EIP-3009 authorization is one (payer, nonce) pair. */
export type AuthorizationKey = { payer: string; nonce: string };

/** What is written before settlement: the paid request and the report it buys. */
export const NewPaymentRecordSchema = z.object({
  payer: Address,
  /** The EIP-3009 authorization nonce (bytes32). */
  nonce: Bytes32,
  /** CAIP-2 network of the payment, e.g. eip155:8453. */
  network: z.string().min(1),
  /** The token paid in (EIP-3009 contract). */
  asset: Address,
  payTo: Address,
  route: z.string().min(1),
  /** USDC base units. */
  amount: z.string().regex(/^\d+$/),
  /** Seconds since epoch after which the authorization can no longer settle. */
  validBefore: z.number().int().nonnegative(),
  /** The exact JSON body the payer is sent on success. */
  report: z.unknown(),
  /**
   * The payer's payment-identifier (x402 extension), if sent: a retry carrying it is answered
   * from this record instead of being charged again. Unique across records.
   */
  paymentId: z.string().min(1).max(128).nullable().optional(),
  /** Hash of what was asked (route, address, chain): a reused payment id must ask the same. */
  requestHash: z.string().min(1).max(128).nullable().optional(),
  /** When the paid request was made (ISO); default now. Set by imports of older stores. */
  createdAt: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), "an ISO time")
    .optional(),
});
export type NewPaymentRecord = z.infer<typeof NewPaymentRecordSchema>;

export const PaymentRecordSchema = NewPaymentRecordSchema.extend({
  paymentId: z.string().nullable(),
  requestHash: z.string().nullable(),
  status: z.enum(paymentStatuses),
  /** Settlement transaction (lowercase); for `unknown`, the candidate that was broadcast, if any. */
  tx: Bytes32.nullable(),
  /**
   * The detached signature the report was first answered with (PRESEND-REPORT-SIGNATURE), kept
   * so /receipts serves the report as it was signed, also after the attestation key rotated.
   */
  reportSignature: z.string().nullable(),
  /** ISO times. */
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PaymentRecord = z.infer<typeof PaymentRecordSchema>;

/** Thrown by `begin` when the authorization is already recorded (one authorization, one run). */
export class AuthorizationAlreadyRecorded extends PaymentError<"authorization_recorded"> {
  override name = "AuthorizationAlreadyRecorded";
  constructor(readonly existing: PaymentRecord) {
    super(`authorization ${existing.nonce} of ${existing.payer} is already recorded`, {
      code: "authorization_recorded",
    });
  }
}

/**
 * The write-ahead record of every paid request. Every method is durable when its promise
 * resolves. Payers and nonces compare case-insensitively (stored lowercase), as do transactions.
 * Transitions: pending -> settled | unknown | failed; unknown -> settled | failed;
 * failed -> settled (the chain is the truth if it later shows the transfer); settled is final.
 * A transition the rules do not allow is ignored and the current record returned.
 * SQLite implements it today (openSqlitePaymentRecords); a server database implements the same
 * interface and runs the same contract suite (paymentRecordStoreContract).
 */
export type PaymentRecordStore = {
  /** Records a paid request as `pending` before settlement; throws AuthorizationAlreadyRecorded. */
  begin(record: NewPaymentRecord): Promise<PaymentRecord>;
  /** The transfer is on chain in `tx`. */
  markSettled(key: AuthorizationKey, tx: string): Promise<PaymentRecord | undefined>;
  /** Settlement was attempted, outcome unreadable; `tx` is the broadcast candidate if known. */
  markUnknown(key: AuthorizationKey, tx: string | null): Promise<PaymentRecord | undefined>;
  /** The chain proves nothing was (or can be) charged. */
  markFailed(key: AuthorizationKey): Promise<PaymentRecord | undefined>;
  /**
   * Keeps the signature a settled record's report was answered with; the first one kept stays
   * (concurrent answers agree on it). Returns the record as it now is.
   */
  keepReportSignature(key: AuthorizationKey, signature: string): Promise<PaymentRecord | undefined>;
  byAuthorization(key: AuthorizationKey): Promise<PaymentRecord | undefined>;
  /** The record begun with this payment-identifier, if any (ids compare exactly). */
  byPaymentId(paymentId: string): Promise<PaymentRecord | undefined>;
  /** Only settled records have a transaction to find them by. */
  byTransaction(tx: string): Promise<PaymentRecord | undefined>;
  /**
   * Records still `pending` or `unknown`: what the reconciler looks at. Those never checked come
   * first (oldest first), then those checked longest ago (`markChecked`), so records the chain
   * cannot decide yet take turns with the rest instead of filling every batch. With
   * `validBeforeBelow`, only records whose authorization expires before it: each kind of payment
   * gets a batch of its own, so one kind's open records never fill another's.
   */
  unresolved(limit?: number, filter?: UnresolvedFilter): Promise<PaymentRecord[]>;
  /**
   * The reconciler looked at these open records now, decided or not: they go to the back of
   * `unresolved`. Unknown keys are ignored; the status is not touched.
   */
  markChecked(keys: AuthorizationKey[]): Promise<void>;
  /** How many records there are (in one status, or all). */
  count(status?: PaymentStatus): Promise<number>;
  /**
   * Commits a small write of the store's own (a heartbeat row, no record) and resolves once it
   * is durable; throws while the store takes no writes (a read-only database, a standby after a
   * failover, a full disk), which a read alone would not show. /readyz's probe.
   */
  writable(): Promise<void>;
  close(): Promise<void>;
};

/** Which open records `unresolved` returns. */
export type UnresolvedFilter = { validBeforeBelow?: number };

/** The bound `unresolved` applies when none is given: every record. */
export const noValidBeforeBound = Number.MAX_SAFE_INTEGER;

/** Lowercases the key: the one form every store compares. */
export function normalizeKey(key: AuthorizationKey): AuthorizationKey {
  return { payer: key.payer.toLowerCase(), nonce: key.nonce.toLowerCase() };
}

const allowed: Record<PaymentStatus, readonly PaymentStatus[]> = {
  pending: ["settled", "unknown", "failed"],
  unknown: ["settled", "failed", "unknown"],
  failed: ["settled"],
  settled: [],
};

/** Whether a record may move from `from` to `to` (the store interface's transition rules). */
export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return allowed[from].includes(to);
}
