import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { channelRecordValidBefore } from "../channels/channelLedger";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { createPaymentRecords } from "./paymentRecords";
import { settleGraceSeconds } from "./reconcilePayments";

const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
const validBefore = 1_900_000_000;

describe("createPaymentRecords", () => {
  it("reconciles exact payments in a batch of their own: channel vouchers waiting for a claim never crowd them out", async () => {
    const store = createMemoryPaymentRecords();
    // Older than the exact payment, and more of them than the batch holds.
    for (let n = 1; n <= 5; n++) {
      await store.begin(samplePaymentRecord(n, { validBefore: channelRecordValidBefore }));
    }
    const lost = samplePaymentRecord(6, { validBefore });
    await store.begin(lost);
    await store.markUnknown(lost, null);
    const records = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: validBefore - 10, used: new Map([[lost.nonce, tx(6)]]) }),
      claimDecidedFrom: channelRecordValidBefore,
    });

    expect(await records.reconcile(2)).toEqual({ settled: 1, failed: 0, open: 0 });
    expect(await records.byAuthorization(lost)).toMatchObject({ status: "settled", tx: tx(6) });
    // The vouchers are the channel reconciler's: untouched here.
    expect(await store.count("pending")).toBe(5);
  });

  it("answers from a record: the report, an open outcome with its deadline, a channel's next claim, or not charged", async () => {
    const store = createMemoryPaymentRecords();
    const records = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: validBefore, used: new Map() }),
      claimDecidedFrom: channelRecordValidBefore,
    });
    const settled = await records.begin(samplePaymentRecord(10, { validBefore }));
    const open = await records.begin(samplePaymentRecord(11, { validBefore }));
    const failed = await records.begin(samplePaymentRecord(12, { validBefore }));
    const voucher = await records.begin(
      samplePaymentRecord(13, { validBefore: channelRecordValidBefore }),
    );
    await records.markSettled(settled, tx(10));
    // The broadcast candidate an unknown record keeps is not a settlement: no report for it.
    await records.markUnknown(open, tx(11));
    await records.markFailed(failed);
    const answerOf = async (key: { payer: string; nonce: string }) => {
      const record = await records.byAuthorization(key);
      if (record === undefined) throw new Error("not recorded");
      return records.answerOf(record);
    };

    expect(await answerOf(settled)).toMatchObject({ type: "report", tx: tx(10) });
    expect(await answerOf(open)).toMatchObject({
      type: "open",
      decidedBy: new Date((validBefore + settleGraceSeconds) * 1000).toISOString(),
    });
    expect(await answerOf(failed)).toMatchObject({ type: "not_charged" });
    expect(await answerOf(voucher)).toMatchObject({ type: "awaiting_claim" });
    // Only time decides an exact payment; a voucher waits for its claim whatever the clock says,
    // even one past its own validBefore and the grace, when an exact payment would be failed.
    const longAfter = createPaymentRecords({
      store,
      chain: fakePaymentChain({
        now: channelRecordValidBefore + settleGraceSeconds + 1,
        used: new Map(),
      }),
      claimDecidedFrom: channelRecordValidBefore,
    });
    expect(await longAfter.decide(voucher)).toMatchObject({ status: "pending" });
    expect(await store.byAuthorization(voucher)).toMatchObject({ status: "pending" });
  });

  it("answers a payer asking now with what the chain shows: a used authorization is the report at once, an unused one stays open until its deadline, then not charged", async () => {
    const store = createMemoryPaymentRecords();
    // Before the deadline: the charge whose mark was lost (a database that stopped answering)
    // is the chain's to tell, and it tells at once.
    const early = createPaymentRecords({
      store,
      chain: fakePaymentChain({
        now: validBefore - 30,
        used: new Map([[samplePaymentRecord(30).nonce, tx(30)]]),
      }),
    });
    const charged = await early.begin(samplePaymentRecord(30, { validBefore }));
    const unused = await early.begin(samplePaymentRecord(31, { validBefore }));
    expect(await early.answerNow(charged)).toMatchObject({ type: "report", tx: tx(30) });
    expect(await store.byAuthorization(charged)).toMatchObject({ status: "settled", tx: tx(30) });
    expect(await early.answerNow(unused)).toMatchObject({ type: "open", overdue: false });
    // Past the deadline the unused one can never be charged.
    const late = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: validBefore + settleGraceSeconds + 1, used: new Map() }),
    });
    expect(await late.answerNow(unused)).toMatchObject({ type: "not_charged" });
    // Past its deadline with the chain unreadable, the record stays open and says it is overdue:
    // /receipts then says the chain could not be read, not a deadline that already passed.
    const unread = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: 0, used: new Map(), down: true }),
    });
    const longPast = await unread.begin(samplePaymentRecord(32, { validBefore: 1_000_000_000 }));
    expect(await unread.answerNow(longPast)).toMatchObject({ type: "open", overdue: true });
    expect(await store.byAuthorization(longPast)).toMatchObject({ status: "pending" });
  });

  it("settles a record by a transaction the chain showed using its authorization, with no further read, and answers it even when the store refuses the mark", async () => {
    const store = createMemoryPaymentRecords();
    // The chain is down for any further read: the transaction's receipt was all it took.
    const records = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: 0, used: new Map(), down: true }),
    });
    const open = await records.begin(samplePaymentRecord(40, { validBefore }));
    const failed = await records.begin(samplePaymentRecord(41, { validBefore }));
    await records.markFailed(failed);
    expect(await records.answerNow(open, tx(40))).toMatchObject({ type: "report", tx: tx(40) });
    expect(await store.byAuthorization(open)).toMatchObject({ status: "settled", tx: tx(40) });
    // A record wrongly failed is corrected by the chain's word: the payer is not told "never charged".
    expect(await records.answerNow(failed, tx(41))).toMatchObject({ type: "report", tx: tx(41) });
    // A store that takes no writes: the answer is the chain's, the record stays to be marked.
    const unwritten: unknown[] = [];
    const readOnly = createPaymentRecords({
      store: {
        ...store,
        markSettled: async () => {
          throw new Error("read-only");
        },
      },
      chain: fakePaymentChain({ now: 0, used: new Map(), down: true }),
      onUnwritten: (error) => unwritten.push(error),
    });
    const pending = await readOnly.begin(samplePaymentRecord(42, { validBefore }));
    expect(await readOnly.answerNow(pending, tx(42))).toMatchObject({ type: "report", tx: tx(42) });
    expect(await store.byAuthorization(pending)).toMatchObject({ status: "pending" });
    expect(unwritten).toHaveLength(1);
  });

  it("keeps a channel voucher's books: settled by the claim that covers it, or failed when not charged, keys in any case", async () => {
    const store = createMemoryPaymentRecords();
    const records = createPaymentRecords({
      store,
      chain: fakePaymentChain({ now: validBefore, used: new Map() }),
      claimDecidedFrom: channelRecordValidBefore,
    });
    const claimed = await records.begin(
      samplePaymentRecord(20, { validBefore: channelRecordValidBefore }),
    );
    const refused = await records.begin(
      samplePaymentRecord(21, { validBefore: channelRecordValidBefore }),
    );
    // The channel ledger and the claim reconciler write with the keys as the payer sent them.
    const upper = (key: { payer: string; nonce: string }) => ({
      payer: key.payer.toUpperCase().replace("0X", "0x"),
      nonce: key.nonce,
    });
    expect(await records.markSettled(upper(claimed), tx(20))).toMatchObject({
      status: "settled",
      tx: tx(20),
    });
    expect(await records.markFailed(upper(refused))).toMatchObject({ status: "failed" });
    const answerOf = async (key: { payer: string; nonce: string }) => {
      const record = await records.byAuthorization(key);
      if (record === undefined) throw new Error("not recorded");
      return records.answerOf(record);
    };
    expect(await answerOf(claimed)).toMatchObject({ type: "report", tx: tx(20) });
    expect(await answerOf(refused)).toMatchObject({ type: "not_charged" });
    // A later claim never undoes a settled voucher.
    expect(await records.markFailed(claimed)).toMatchObject({ status: "settled" });
  });
});
