import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import Database from "better-sqlite3";
import { z } from "zod";
import { paymentRecordColumns, paymentRecordFromRow } from "./paymentRecordRow";
import {
  AuthorizationAlreadyRecorded,
  type AuthorizationKey,
  canTransition,
  NewPaymentRecordSchema,
  normalizeKey,
  noValidBeforeBound,
  type PaymentRecord,
  type PaymentRecordStore,
  type PaymentStatus,
  TransactionHashSchema,
} from "./paymentRecordStore";

/**
 * The PaymentRecordStore on SQLite at `file` (":memory:" for tests), created if needed.
 * @example const records = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
 */
export function openSqlitePaymentRecords(file: string): PaymentRecordStore {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL + FULL sync: a record is on disk the moment its promise resolves.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(`CREATE TABLE IF NOT EXISTS payment_records (
    id INTEGER PRIMARY KEY,
    payer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    pay_to TEXT NOT NULL,
    route TEXT NOT NULL,
    amount TEXT NOT NULL,
    valid_before INTEGER NOT NULL,
    report_json TEXT NOT NULL,
    status TEXT NOT NULL,
    tx TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (payer, nonce)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS payment_records_tx ON payment_records (tx) WHERE status = 'settled';
  CREATE INDEX IF NOT EXISTS payment_records_open ON payment_records (status) WHERE status IN ('pending', 'unknown');`);
  // Columns added after the first release: a file written before them gains them here.
  const columns = new Set(
    z
      .array(z.object({ name: z.string() }))
      .parse(db.prepare("PRAGMA table_info(payment_records)").all())
      .map((column) => column.name),
  );
  if (!columns.has("payment_id")) db.exec("ALTER TABLE payment_records ADD COLUMN payment_id TEXT");
  if (!columns.has("request_hash"))
    db.exec("ALTER TABLE payment_records ADD COLUMN request_hash TEXT");
  if (!columns.has("report_signature"))
    db.exec("ALTER TABLE payment_records ADD COLUMN report_signature TEXT");
  // When the reconciler last looked at an open record (ISO): the order `unresolved` serves in.
  if (!columns.has("checked_at")) db.exec("ALTER TABLE payment_records ADD COLUMN checked_at TEXT");
  db.exec(
    "CREATE INDEX IF NOT EXISTS payment_records_open_turn ON payment_records (checked_at, id) WHERE status IN ('pending', 'unknown')",
  );
  db.exec(
    "CREATE UNIQUE INDEX IF NOT EXISTS payment_records_payment_id ON payment_records (payment_id) WHERE payment_id IS NOT NULL",
  );
  // One row the readiness probe rewrites: a full disk refuses it as it refuses a record.
  db.exec(
    "CREATE TABLE IF NOT EXISTS presend_write_probe (id INTEGER PRIMARY KEY CHECK (id = 1), written_at TEXT NOT NULL) STRICT",
  );
  const probeWrite = db.prepare(
    "INSERT INTO presend_write_probe (id, written_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at",
  );
  const insert = db.prepare(
    `INSERT INTO payment_records
       (payer, nonce, network, asset, pay_to, route, amount, valid_before, report_json, payment_id, request_hash, status, tx, created_at, updated_at)
     VALUES (@payer, @nonce, @network, @asset, @pay_to, @route, @amount, @valid_before, @report_json, @payment_id, @request_hash, 'pending', NULL, @created_at, @now)
     ON CONFLICT (payer, nonce) DO NOTHING`,
  );
  const selectByKey = db.prepare("SELECT * FROM payment_records WHERE payer = ? AND nonce = ?");
  const selectByPaymentId = db.prepare("SELECT * FROM payment_records WHERE payment_id = ?");
  const selectByTx = db.prepare(
    "SELECT * FROM payment_records WHERE tx = ? AND status = 'settled' LIMIT 1",
  );
  const selectOpen = db.prepare(
    "SELECT * FROM payment_records WHERE status IN ('pending', 'unknown') AND valid_before < ? ORDER BY checked_at NULLS FIRST, id LIMIT ?",
  );
  const check = db.prepare(
    "UPDATE payment_records SET checked_at = @now WHERE payer = @payer AND nonce = @nonce",
  );
  const checkAll = db.transaction((keys: AuthorizationKey[], now: string) => {
    for (const key of keys) check.run({ ...normalizeKey(key), now });
  });
  const update = db.prepare(
    "UPDATE payment_records SET status = @status, tx = @tx, updated_at = @now WHERE payer = @payer AND nonce = @nonce",
  );
  const keepSignature = db.prepare(
    `UPDATE payment_records SET report_signature = @signature, updated_at = @now
     WHERE payer = @payer AND nonce = @nonce AND status = 'settled' AND report_signature IS NULL`,
  );
  const countAll = db.prepare("SELECT count(*) AS n FROM payment_records");
  const countStatus = db.prepare("SELECT count(*) AS n FROM payment_records WHERE status = ?");
  const Count = z.object({ n: z.number() });

  const find = (key: AuthorizationKey): PaymentRecord | undefined => {
    const { payer, nonce } = normalizeKey(key);
    const row = selectByKey.get(payer, nonce);
    return row === undefined ? undefined : paymentRecordFromRow(row);
  };
  // Read, check the rule, write, in one transaction: concurrent writers cannot skip a rule.
  const transition = db.transaction(
    (key: AuthorizationKey, to: PaymentStatus, tx: string | null | "keep") => {
      const current = find(key);
      if (current === undefined) return undefined;
      if (!canTransition(current.status, to)) return current;
      const next = tx === "keep" ? current.tx : tx === null ? null : tx.toLowerCase();
      update.run({ ...normalizeKey(key), status: to, tx: next, now: new Date().toISOString() });
      return find(key);
    },
  );

  return {
    async begin(record) {
      const valid = NewPaymentRecordSchema.parse(record);
      const key = normalizeKey(valid);
      const inserted = insert.run({
        ...paymentRecordColumns(valid),
        now: new Date().toISOString(),
      });
      const stored = find(key);
      if (stored === undefined)
        throw new PaymentError("payment record was not stored", {
          code: "payment_record_not_stored",
        });
      if (inserted.changes === 0) throw new AuthorizationAlreadyRecorded(stored);
      return stored;
    },
    async markSettled(key, tx) {
      return transition(key, "settled", TransactionHashSchema.parse(tx));
    },
    async markUnknown(key, tx) {
      return transition(key, "unknown", tx);
    },
    async markFailed(key) {
      return transition(key, "failed", "keep");
    },
    async keepReportSignature(key, signature) {
      keepSignature.run({ ...normalizeKey(key), signature, now: new Date().toISOString() });
      return find(key);
    },
    async byAuthorization(key) {
      return find(key);
    },
    async byPaymentId(paymentId) {
      const row = selectByPaymentId.get(paymentId);
      return row === undefined ? undefined : paymentRecordFromRow(row);
    },
    async byTransaction(tx) {
      const row = selectByTx.get(tx.toLowerCase());
      return row === undefined ? undefined : paymentRecordFromRow(row);
    },
    async unresolved(limit = 100, filter = {}) {
      return selectOpen
        .all(filter.validBeforeBelow ?? noValidBeforeBound, limit)
        .map(paymentRecordFromRow);
    },
    async markChecked(keys) {
      checkAll(keys, new Date().toISOString());
    },
    async count(status) {
      return Count.parse(status === undefined ? countAll.get() : countStatus.get(status)).n;
    },
    async writable() {
      probeWrite.run(new Date().toISOString());
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
