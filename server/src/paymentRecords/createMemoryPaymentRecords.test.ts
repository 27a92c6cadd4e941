import { createMemoryPaymentRecords } from "./createMemoryPaymentRecords";
import { describePaymentRecordStore } from "./paymentRecordStoreContract";

describePaymentRecordStore("memory", async () => {
  const store = createMemoryPaymentRecords();
  return { store, reopen: async () => store, cleanup: async () => {} };
});
