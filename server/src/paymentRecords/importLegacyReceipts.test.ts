import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import Database from "better-sqlite3";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { startPaidStack } from "../payments/testing/startPaidStack";
import { importedSuffix, importLegacyReceipts, legacyReceiptsFile } from "./importLegacyReceipts";
import { openSqlitePaymentRecords } from "./openSqlitePaymentRecords";

const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const payer = privateKeyToAccount(devnetAccounts.payer.privateKey);

type OldReceipt = {
  tx: string;
  network: string;
  payer: string;
  payTo: string;
  route: string;
  amount: string;
  report: unknown;
  createdAt: string;
};

/**
 * Writes `receipts` the way the old receipt store did (its schema, pragmas and insert, as
 * released before the payment records replaced it).
 */
function writeOldReceiptStore(file: string, receipts: OldReceipt[]) {
  const db = new Database(file);
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
  for (const receipt of receipts) {
    insert.run({ ...receipt, reportJson: JSON.stringify(receipt.report) });
  }
  db.close();
}

const oldReceipt = (n: number, overrides: Partial<OldReceipt> = {}): OldReceipt => ({
  tx: `0x${n.toString(16).padStart(64, "a")}`,
  network: "eip155:8453",
  payer: payer.address,
  payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
  route: n % 2 === 0 ? "/deep" : "/check",
  amount: n % 2 === 0 ? "50000" : "10000",
  report: {
    address: "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA",
    n,
    checkedAt: "2026-10-01T00:00:00.000Z",
  },
  createdAt: `2026-10-0${n}T08:00:00.000Z`,
  ...overrides,
});

describe("importLegacyReceipts: receipts.sqlite of an older install into the payment records", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-legacy-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("imports every row as a settled record once, keeps its time, and renames the old file", async () => {
    const dir = tempDir();
    const file = join(dir, legacyReceiptsFile);
    writeOldReceiptStore(file, [oldReceipt(1), oldReceipt(2), oldReceipt(3)]);
    const records = openSqlitePaymentRecords(join(dir, "payments.sqlite"));
    try {
      expect(await importLegacyReceipts({ file, records, asset: usdc })).toEqual({
        imported: 3,
        alreadyThere: 0,
        renamedTo: `${file}${importedSuffix}`,
      });
      expect(existsSync(file)).toBe(false);
      expect(existsSync(`${file}${importedSuffix}`)).toBe(true);
      expect(await records.count("settled")).toBe(3);
      const second = oldReceipt(2);
      expect(
        await records.byTransaction(second.tx.toUpperCase().replace("0X", "0x")),
      ).toMatchObject({
        status: "settled",
        tx: second.tx,
        payer: payer.address.toLowerCase(),
        route: "/deep",
        amount: "50000",
        report: second.report,
        createdAt: second.createdAt,
        asset: usdc.toLowerCase(),
      });
      expect(await records.unresolved()).toEqual([]);

      // Started again: nothing to import.
      expect(await importLegacyReceipts({ file, records, asset: usdc })).toBe(null);

      // An import cut short (the file still there, its rows partly in): finished, nothing twice.
      copyFileSync(`${file}${importedSuffix}`, file);
      writeOldReceiptStore(file, [oldReceipt(4)]);
      expect(await importLegacyReceipts({ file, records, asset: usdc })).toMatchObject({
        imported: 1,
        alreadyThere: 3,
      });
      expect(await records.count()).toBe(4);
      expect(await records.count("settled")).toBe(4);
    } finally {
      await records.close();
    }
  });

  it("an import killed between writing a row and settling it settles that row when started again", async () => {
    const dir = tempDir();
    const file = join(dir, legacyReceiptsFile);
    writeOldReceiptStore(file, [oldReceipt(5)]);
    const records = openSqlitePaymentRecords(join(dir, "payments.sqlite"));
    try {
      // The row is written, then the process dies before it is marked settled.
      const killed = {
        ...records,
        markSettled: async () => {
          throw new Error("killed");
        },
      };
      await expect(importLegacyReceipts({ file, records: killed, asset: usdc })).rejects.toThrow();
      expect(await records.count("pending")).toBe(1);
      expect(existsSync(file)).toBe(true);

      // Left pending (validBefore 0), the reconciler would call a paid receipt never charged.
      expect(await importLegacyReceipts({ file, records, asset: usdc })).toMatchObject({
        imported: 0,
        alreadyThere: 1,
      });
      expect(await records.byTransaction(oldReceipt(5).tx)).toMatchObject({
        status: "settled",
        report: oldReceipt(5).report,
      });
      expect(await records.unresolved()).toEqual([]);
    } finally {
      await records.close();
    }
  });

  it("imports nothing from a file without the receipts table, and refuses a malformed row", async () => {
    const dir = tempDir();
    const empty = join(dir, "empty.sqlite");
    new Database(empty).close();
    const records = openSqlitePaymentRecords(":memory:");
    try {
      expect(await importLegacyReceipts({ file: empty, records, asset: usdc })).toMatchObject({
        imported: 0,
      });
      const bad = join(dir, legacyReceiptsFile);
      writeOldReceiptStore(bad, [oldReceipt(1, { tx: "0x1234" })]);
      await expect(importLegacyReceipts({ file: bad, records, asset: usdc })).rejects.toThrow();
      // Left in place for the operator to look at; nothing half-imported.
      expect(existsSync(bad)).toBe(true);
      expect(await records.count()).toBe(0);
    } finally {
      await records.close();
    }
  });

  it("on start, a receipt paid before the upgrade is fetched from /receipts/{tx}, signed", async () => {
    const dataDir = tempDir();
    const paidBefore = oldReceipt(1);
    writeOldReceiptStore(join(dataDir, legacyReceiptsFile), [paidBefore]);
    // Reads only: nothing is paid, so the run's shared world serves.
    const stack = await startPaidStack({ world: sharedWorld(), dataDir });
    try {
      const signature = await payer.signMessage({ message: receiptMessage(paidBefore.tx) });
      const fetched = await stack.app.request(`/receipts/${paidBefore.tx}?signature=${signature}`);
      expect(fetched.status).toBe(200);
      const receipt = await fetched.json();
      expect(receipt).toMatchObject({
        tx: paidBefore.tx,
        payer: payer.address,
        route: "/check",
        amount: "10000",
        createdAt: paidBefore.createdAt,
        report: paidBefore.report,
      });
      const verified = await verifyReportSignature({
        signature: receipt.signature,
        report: receipt.report,
        settlement: {
          transaction: paidBefore.tx,
          network: paidBefore.network,
          payer: payer.address,
        },
        key: stack.payments.attestation.current().key,
      });
      expect(verified.type).toBe("verified");
      expect(existsSync(join(dataDir, `${legacyReceiptsFile}${importedSuffix}`))).toBe(true);
    } finally {
      await stack.stop();
    }
  });
});
