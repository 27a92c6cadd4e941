import { existsSync, renameSync } from "node:fs";
import { addressPattern } from "@presend/shared/address/addressPattern";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import Database from "better-sqlite3";
import { z } from "zod";
import {
  AuthorizationAlreadyRecorded,
  type PaymentRecord,
  type PaymentRecordStore,
} from "./paymentRecordStore";

/** The file name older installs kept their receipts in, inside DATA_DIR. */
export const legacyReceiptsFile = "receipts.sqlite";
/** What the file is renamed to once every row is in the payment records. */
export const importedSuffix = ".imported";

/** A row of the old `receipts` table: one settled payment and the report it bought. */
const LegacyReceiptRowSchema = z.object({
  tx: z.string().regex(bytes32Pattern),
  network: z.string().min(1),
  payer: z.string().regex(addressPattern),
  pay_to: z.string().regex(addressPattern),
  route: z.string().min(1),
  amount: z.string().regex(/^\d+$/),
  report_json: z.string(),
  created_at: z.string(),
});

export type LegacyImport = {
  /** Rows written into the payment records now. */
  imported: number;
  /** Rows a previous, interrupted import had already written. */
  alreadyThere: number;
  /** Where the old file is now. */
  renamedTo: string;
};

/**
 * Moves the receipts an older install kept in `receipts.sqlite` (table `receipts`: settled
 * payments by transaction) into the payment records, so a report paid before the upgrade is
 * still fetched from /receipts/{tx}. Each row becomes a `settled` record with its transaction,
 * payer, payTo, route, amount, report and time. The old table never kept the authorization
 * nonce or its validity, so the record carries the transaction in the nonce's place and a
 * validBefore of 0 (it is settled: nothing reads either). Idempotent: a row already recorded is
 * left as it is; once every row is in, the file (and its -wal/-shm) is renamed to
 * `receipts.sqlite.imported`, kept for the operator, never read again. null when there is no file.
 * @example await importLegacyReceipts({ file: join(dataDir, "receipts.sqlite"), records, asset });
 */
export async function importLegacyReceipts(options: {
  file: string;
  records: PaymentRecordStore;
  /** The token the old receipts were paid in (the payment config's asset: USDC). */
  asset: string;
}): Promise<LegacyImport | null> {
  const { file, records } = options;
  if (!existsSync(file)) return null;
  const db = new Database(file, { fileMustExist: true });
  let rows: z.infer<typeof LegacyReceiptRowSchema>[];
  try {
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'receipts'")
      .get();
    rows =
      table === undefined
        ? []
        : z.array(LegacyReceiptRowSchema).parse(db.prepare("SELECT * FROM receipts").all());
  } finally {
    db.close();
  }
  const result = { imported: 0, alreadyThere: 0 };
  for (const row of rows) {
    const tx = row.tx.toLowerCase();
    const key = { payer: row.payer, nonce: tx };
    let record: PaymentRecord;
    try {
      record = await records.begin({
        ...key,
        network: row.network,
        asset: options.asset,
        payTo: row.pay_to,
        route: row.route,
        amount: row.amount,
        validBefore: 0,
        report: JSON.parse(row.report_json) as unknown,
        createdAt: row.created_at,
      });
      result.imported++;
    } catch (error) {
      if (!(error instanceof AuthorizationAlreadyRecorded)) throw error;
      record = error.existing;
      result.alreadyThere++;
    }
    if (record.status !== "settled") await records.markSettled(key, tx);
  }
  const renamedTo = `${file}${importedSuffix}`;
  renameSync(file, renamedTo);
  for (const side of ["-wal", "-shm"]) {
    if (existsSync(`${file}${side}`)) renameSync(`${file}${side}`, `${renamedTo}${side}`);
  }
  return { ...result, renamedTo };
}
