import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openSqlitePaymentRecords } from "./openSqlitePaymentRecords";
import { describePaymentRecordStore } from "./paymentRecordStoreContract";
import { samplePaymentRecord } from "./samplePaymentRecord";

describePaymentRecordStore("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-records-"));
  const file = join(dir, "payments.sqlite");
  let store = openSqlitePaymentRecords(file);
  return {
    store,
    reopen: async () => {
      await store.close();
      store = openSqlitePaymentRecords(file);
      return store;
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe("openSqlitePaymentRecords on a file written before the turn column", () => {
  it("adds checked_at in place: the file's open records are listed and take turns", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-records-"));
    const file = join(dir, "payments.sqlite");
    try {
      const first = openSqlitePaymentRecords(file);
      for (const n of [1, 2, 3]) await first.begin(samplePaymentRecord(n));
      await first.close();
      // The file as a release before the column left it.
      const db = new Database(file);
      db.exec(
        "DROP INDEX payment_records_open_turn; ALTER TABLE payment_records DROP COLUMN checked_at",
      );
      db.close();

      const store = openSqlitePaymentRecords(file);
      try {
        const nonces = (records: { nonce: string }[]) => records.map((r) => r.nonce);
        expect(nonces(await store.unresolved())).toEqual(
          nonces([1, 2, 3].map((n) => samplePaymentRecord(n))),
        );
        await store.markChecked([samplePaymentRecord(1)]);
        expect(nonces(await store.unresolved())).toEqual(
          nonces([2, 3, 1].map((n) => samplePaymentRecord(n))),
        );
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
