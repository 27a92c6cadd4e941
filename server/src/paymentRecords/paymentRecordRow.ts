import { z } from "zod";
import {
  type NewPaymentRecord,
  normalizeKey,
  type PaymentRecord,
  paymentStatuses,
} from "./paymentRecordStore";

/** A time column: ISO text in SQLite, a Date from PostgreSQL; an ISO string either way. */
const Time = z.union([z.string(), z.date()]).transform((value) => new Date(value).toISOString());

/** A `payment_records` row as both SQL stores have it (snake_case columns). */
const PaymentRecordRowSchema = z.object({
  payer: z.string(),
  nonce: z.string(),
  network: z.string(),
  asset: z.string(),
  pay_to: z.string(),
  route: z.string(),
  amount: z.string(),
  // BIGINT comes back from pg as a string.
  valid_before: z.coerce.number(),
  report_json: z.string(),
  payment_id: z.string().nullable(),
  request_hash: z.string().nullable(),
  status: z.enum(paymentStatuses),
  tx: z.string().nullable(),
  report_signature: z.string().nullable().default(null),
  created_at: Time,
  updated_at: Time,
});

/**
 * A `payment_records` row read back as a PaymentRecord: the one column-to-field mapping of the
 * SQLite and PostgreSQL stores.
 * @example const record = paymentRecordFromRow(db.prepare("SELECT * FROM payment_records").get());
 */
export function paymentRecordFromRow(row: unknown): PaymentRecord {
  const r = PaymentRecordRowSchema.parse(row);
  return {
    payer: r.payer,
    nonce: r.nonce,
    network: r.network,
    asset: r.asset,
    payTo: r.pay_to,
    route: r.route,
    amount: r.amount,
    validBefore: r.valid_before,
    report: JSON.parse(r.report_json) as unknown,
    paymentId: r.payment_id,
    requestHash: r.request_hash,
    status: r.status,
    tx: r.tx,
    reportSignature: r.report_signature,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * The column values a new (validated) record is inserted with, in the one stored form: payer,
 * nonce, asset and payTo lowercase, the report as its exact JSON text.
 */
export function paymentRecordColumns(record: NewPaymentRecord) {
  const key = normalizeKey(record);
  return {
    payer: key.payer,
    nonce: key.nonce,
    network: record.network,
    asset: record.asset.toLowerCase(),
    pay_to: record.payTo.toLowerCase(),
    route: record.route,
    amount: record.amount,
    valid_before: record.validBefore,
    report_json: JSON.stringify(record.report ?? null),
    payment_id: record.paymentId ?? null,
    request_hash: record.requestHash ?? null,
    created_at: new Date(record.createdAt ?? Date.now()).toISOString(),
  };
}
