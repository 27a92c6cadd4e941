import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import type { PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { keptReportSignature } from "./keptReportSignature";

const sample = samplePaymentRecord(1);
const transaction = `0x${"ab".repeat(32)}`;
const settlement = { transaction, network: sample.network, payer: sample.payer };

/** A signer that says which key signed and counts its calls (the key rotates between them). */
function rotatingSigner() {
  const state = { key: "k1", calls: 0 };
  const sign = async () => {
    state.calls++;
    return `${state.key}..sig`;
  };
  return { state, sign };
}

describe("keptReportSignature", () => {
  it("answers a settled report again with the signature it was first sent with, after the key rotated", async () => {
    const store = createMemoryPaymentRecords();
    await store.begin(sample);
    await store.markSettled(sample, transaction);
    const { state, sign } = rotatingSigner();
    const signReport = keptReportSignature(store, sign);
    expect(await signReport(sample.report, settlement)).toBe("k1..sig");
    state.key = "k2";
    expect(await signReport(sample.report, settlement)).toBe("k1..sig");
    expect(state.calls).toBe(1);
  });

  it("answers the kept signature without signing anew, even while the store refuses writes", async () => {
    // A store that reads but cannot write: a signature made now under the rotated key could
    // not be kept, and the report would be answered under a key its payer never saw.
    const store = createMemoryPaymentRecords();
    await store.begin(sample);
    await store.markSettled(sample, transaction);
    await store.keepReportSignature(sample, "k1..sig");
    const readOnly: PaymentRecordStore = {
      ...store,
      keepReportSignature: async () => {
        throw new Error("the records database is read-only");
      },
    };
    const { state, sign } = rotatingSigner();
    state.key = "k2";
    expect(await keptReportSignature(readOnly, sign)(sample.report, settlement)).toBe("k1..sig");
    expect(state.calls).toBe(0);
  });

  it("signs, and keeps nothing, for a report its settlement's record does not hold (checks sharing one claim)", async () => {
    const store = createMemoryPaymentRecords();
    await store.begin(sample);
    await store.markSettled(sample, transaction);
    await store.keepReportSignature(sample, "other-report..sig");
    const { sign } = rotatingSigner();
    const another = { address: "0x0000000000000000000000000000000000000001" };
    expect(await keptReportSignature(store, sign)(another, settlement)).toBe("k1..sig");
    expect((await store.byAuthorization(sample))?.reportSignature).toBe("other-report..sig");
  });
});
