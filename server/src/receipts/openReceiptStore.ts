import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";

/** One settled payment and the report it bought. */
export const ReceiptSchema = z.object({
  /** Settlement transaction hash (lowercase 0x + 64 hex). */
  tx: z.string().regex(/^0x[0-9a-f]{64}$/),
  network: z.string(),
  payer: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  payTo: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  route: z.string(),
  /** USDC base units paid. */
  amount: z.string().regex(/^\d+$/),
  /** The exact JSON body the payer was sent. */
  report: z.unknown(),
  createdAt: z.string(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

export type ReceiptStore = {
  /** Durably records a settled payment (synchronous: on disk when it returns). */
  record(receipt: Receipt): void;
  get(tx: string): Receipt | undefined;
  count(): number;
  close(): void;
};

const RowSchema = z.object({
  tx: z.string(),
  network: z.string(),
  payer: z.string(),
  pay_to: z.string(),
  route: z.string(),
  amount: z.string(),
  report_json: z.string(),
  created_at: z.string(),
});

/**
 * Opens (creating if needed) the SQLite receipt store at `file` (":memory:" for tests).
 * @example const receipts = openReceiptStore(join(dataDir, "receipts.sqlite"));
 */
export function openReceiptStore(file: string): ReceiptStore {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL + FULL sync: a receipt survives a crash the moment record() returns.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(`CREATE TABLE IF NOT EXISTS receipts (
    tx TEXT PRIMARY KEY,
    network TEXT NOT NULL,
    payer TEXT NOT NULL,
    pay_to TEXT NOT NULL,
    route TEXT NOT NULL,
    amount TEXT NOT NULL,
    report_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`);
  const insert = db.prepare(
    `INSERT INTO receipts (tx, network, payer, pay_to, route, amount, report_json, created_at)
     VALUES (@tx, @network, @payer, @payTo, @route, @amount, @reportJson, @createdAt)
     ON CONFLICT (tx) DO NOTHING`,
  );
  const select = db.prepare("SELECT * FROM receipts WHERE tx = ?");
  const countAll = db.prepare("SELECT count(*) AS n FROM receipts");
  return {
    record(receipt) {
      const valid = ReceiptSchema.parse(receipt);
      insert.run({
        tx: valid.tx,
        network: valid.network,
        payer: valid.payer,
        payTo: valid.payTo,
        route: valid.route,
        amount: valid.amount,
        reportJson: JSON.stringify(valid.report),
        createdAt: valid.createdAt,
      });
    },
    get(tx) {
      const row = select.get(tx.toLowerCase());
      if (row === undefined) return undefined;
      const r = RowSchema.parse(row);
      return {
        tx: r.tx,
        network: r.network,
        payer: r.payer,
        payTo: r.pay_to,
        route: r.route,
        amount: r.amount,
        report: JSON.parse(r.report_json) as unknown,
        createdAt: r.created_at,
      };
    },
    count() {
      return z.object({ n: z.number() }).parse(countAll.get()).n;
    },
    close() {
      db.close();
    },
  };
}
