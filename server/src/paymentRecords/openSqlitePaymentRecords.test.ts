import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlitePaymentRecords } from "./openSqlitePaymentRecords";
import { describePaymentRecordStore } from "./paymentRecordStoreContract";

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
