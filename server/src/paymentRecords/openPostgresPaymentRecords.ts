import { PaymentError } from "@presend/shared/errors/PaymentError";
import type pg from "pg";
import {
  inPostgresTransaction,
  openPostgresPool,
  runPostgresSetup,
} from "../postgres/openPostgresPool";
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
 * Schema changes in order; each runs once, in a transaction, recorded in presend_migrations.
 * Append only: a released migration is never edited.
 */
export const postgresMigrations: readonly string[] = [
  `CREATE TABLE payment_records (
    id BIGSERIAL PRIMARY KEY,
    payer TEXT NOT NULL,
    nonce TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    pay_to TEXT NOT NULL,
    route TEXT NOT NULL,
    amount TEXT NOT NULL,
    valid_before BIGINT NOT NULL,
    -- text, not jsonb: the report is kept byte for byte as the payer was sent it
    report_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'settled', 'unknown', 'failed')),
    tx TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (payer, nonce)
  );
  CREATE INDEX payment_records_tx ON payment_records (tx) WHERE status = 'settled';
  CREATE INDEX payment_records_open ON payment_records (id) WHERE status IN ('pending', 'unknown');`,
  `ALTER TABLE payment_records ADD COLUMN payment_id TEXT, ADD COLUMN request_hash TEXT;
  CREATE UNIQUE INDEX payment_records_payment_id ON payment_records (payment_id) WHERE payment_id IS NOT NULL;`,
  "ALTER TABLE payment_records ADD COLUMN report_signature TEXT;",
  `ALTER TABLE payment_records ADD COLUMN checked_at TIMESTAMPTZ;
  CREATE INDEX payment_records_open_turn ON payment_records (checked_at NULLS FIRST, id)
    WHERE status IN ('pending', 'unknown');`,
  // One row each replica's readiness probe rewrites: a write that commits, not a read, is what
  // shows the database takes writes (a standby or a read-only database still answers reads).
  `CREATE TABLE presend_write_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    written_at TIMESTAMPTZ NOT NULL
  );`,
];

// Any constant of our own: replicas starting together take turns migrating.
const migrationLockId = 0x70726573;

/** Runs the migrations not yet applied, one transaction each, under an advisory lock. */
export async function migratePostgres(client: pg.ClientBase): Promise<number> {
  try {
    await client.query("SELECT pg_advisory_lock($1)", [migrationLockId]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS presend_migrations (
        version INTEGER PRIMARY KEY,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
      )`,
    );
    const done = await client.query<{ version: number }>("SELECT version FROM presend_migrations");
    const applied = new Set(done.rows.map((row) => row.version));
    let ran = 0;
    for (const [index, sql] of postgresMigrations.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query("INSERT INTO presend_migrations (version) VALUES ($1)", [version]);
        await client.query("COMMIT");
        ran++;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
    return ran;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [migrationLockId]).catch(() => {});
  }
}

/**
 * The PaymentRecordStore on PostgreSQL (DATABASE_URL), shared by every API replica. Migrations
 * run before it resolves. A write is committed (durable) when its promise resolves.
 * @example const records = await openPostgresPaymentRecords(process.env.DATABASE_URL);
 */
export async function openPostgresPaymentRecords(
  url: string,
  options: { maxConnections?: number } = {},
): Promise<PaymentRecordStore> {
  await runPostgresSetup(url, migratePostgres);
  const pool = openPostgresPool(url, options.maxConnections ?? 10);

  const find = async (
    key: AuthorizationKey,
    client: pg.Pool | pg.PoolClient = pool,
    lock = "",
  ): Promise<PaymentRecord | undefined> => {
    const { payer, nonce } = normalizeKey(key);
    const result = await client.query(
      `SELECT * FROM payment_records WHERE payer = $1 AND nonce = $2${lock}`,
      [payer, nonce],
    );
    return result.rows[0] === undefined ? undefined : paymentRecordFromRow(result.rows[0]);
  };

  // Read under a row lock, check the rule, write, commit: concurrent writers cannot skip a rule.
  const transition = async (
    key: AuthorizationKey,
    to: PaymentStatus,
    tx: string | null | "keep",
  ): Promise<PaymentRecord | undefined> =>
    inPostgresTransaction(pool, async (client) => {
      const current = await find(key, client, " FOR UPDATE");
      if (current === undefined || !canTransition(current.status, to)) return current;
      const next = tx === "keep" ? current.tx : tx === null ? null : tx.toLowerCase();
      const { payer, nonce } = normalizeKey(key);
      const updated = await client.query(
        `UPDATE payment_records SET status = $3, tx = $4, updated_at = now()
         WHERE payer = $1 AND nonce = $2 RETURNING *`,
        [payer, nonce, to, next],
      );
      return paymentRecordFromRow(updated.rows[0]);
    });

  return {
    async begin(record) {
      const valid = NewPaymentRecordSchema.parse(record);
      const key = normalizeKey(valid);
      const row = paymentRecordColumns(valid);
      // In a transaction of its own: an INSERT sent to a database that stopped answering would
      // otherwise run once it answers again, after this request was told 503 "nothing charged",
      // and turn the payer's retry of the same authorization away as already presented. A
      // transaction whose connection was closed on the timeout is rolled back instead.
      const inserted = await inPostgresTransaction(pool, (client) =>
        client.query(
          `INSERT INTO payment_records
           (payer, nonce, network, asset, pay_to, route, amount, valid_before, report_json,
            payment_id, request_hash, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12, now())
         ON CONFLICT (payer, nonce) DO NOTHING
         RETURNING *`,
          [
            row.payer,
            row.nonce,
            row.network,
            row.asset,
            row.pay_to,
            row.route,
            row.amount,
            row.valid_before,
            row.report_json,
            row.payment_id,
            row.request_hash,
            row.created_at,
          ],
        ),
      );
      if (inserted.rows[0] !== undefined) return paymentRecordFromRow(inserted.rows[0]);
      const existing = await find(key);
      if (existing === undefined)
        throw new PaymentError("payment record was not stored", {
          code: "payment_record_not_stored",
        });
      throw new AuthorizationAlreadyRecorded(existing);
    },
    markSettled: async (key, tx) => transition(key, "settled", TransactionHashSchema.parse(tx)),
    markUnknown: (key, tx) => transition(key, "unknown", tx),
    markFailed: (key) => transition(key, "failed", "keep"),
    async keepReportSignature(key, signature) {
      const { payer, nonce } = normalizeKey(key);
      await pool.query(
        `UPDATE payment_records SET report_signature = $3, updated_at = now()
         WHERE payer = $1 AND nonce = $2 AND status = 'settled' AND report_signature IS NULL`,
        [payer, nonce, signature],
      );
      return find(key);
    },
    byAuthorization: (key) => find(key),
    async byPaymentId(paymentId) {
      const result = await pool.query("SELECT * FROM payment_records WHERE payment_id = $1", [
        paymentId,
      ]);
      return result.rows[0] === undefined ? undefined : paymentRecordFromRow(result.rows[0]);
    },
    async byTransaction(tx) {
      const result = await pool.query(
        "SELECT * FROM payment_records WHERE tx = $1 AND status = 'settled' LIMIT 1",
        [tx.toLowerCase()],
      );
      return result.rows[0] === undefined ? undefined : paymentRecordFromRow(result.rows[0]);
    },
    async unresolved(limit = 100, filter = {}) {
      const result = await pool.query(
        "SELECT * FROM payment_records WHERE status IN ('pending', 'unknown') AND valid_before < $1 ORDER BY checked_at NULLS FIRST, id LIMIT $2",
        [filter.validBeforeBelow ?? noValidBeforeBound, limit],
      );
      return result.rows.map(paymentRecordFromRow);
    },
    async markChecked(keys) {
      if (keys.length === 0) return;
      const normalized = keys.map(normalizeKey);
      await pool.query(
        `UPDATE payment_records AS r SET checked_at = now()
         FROM unnest($1::text[], $2::text[]) AS k(payer, nonce)
         WHERE r.payer = k.payer AND r.nonce = k.nonce`,
        [normalized.map((key) => key.payer), normalized.map((key) => key.nonce)],
      );
    },
    async count(status) {
      const result =
        status === undefined
          ? await pool.query<{ n: string }>("SELECT count(*) AS n FROM payment_records")
          : await pool.query<{ n: string }>(
              "SELECT count(*) AS n FROM payment_records WHERE status = $1",
              [status],
            );
      return Number(result.rows[0]?.n ?? 0);
    },
    async writable() {
      await pool.query(
        `INSERT INTO presend_write_probe (id, written_at) VALUES (1, now())
         ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at`,
      );
    },
    async close() {
      await pool.end();
    },
  };
}
