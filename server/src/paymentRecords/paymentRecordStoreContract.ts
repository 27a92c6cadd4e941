import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { AuthorizationAlreadyRecorded, type PaymentRecordStore } from "./paymentRecordStore";
import { samplePaymentRecord } from "./samplePaymentRecord";

const hex = (digit: string, length: number) => `0x${digit.repeat(length)}`;

/**
 * The behaviour every PaymentRecordStore must have. An implementation's test calls this with a
 * factory that opens an empty store (and a way to reopen the same data, to prove durability).
 * @example describePaymentRecordStore("sqlite", async () => ({ store, reopen, close }));
 */
export function describePaymentRecordStore(
  name: string,
  open: () => Promise<{
    store: PaymentRecordStore;
    /** Closes `store` and opens the same data again. */
    reopen: () => Promise<PaymentRecordStore>;
    /** Removes what open created. */
    cleanup: () => Promise<void>;
  }>,
): void {
  describe(`PaymentRecordStore contract: ${name}`, () => {
    const withStore = async (
      run: (
        store: PaymentRecordStore,
        reopen: () => Promise<PaymentRecordStore>,
      ) => Promise<PaymentRecordStore | undefined>,
    ) => {
      const opened = await open();
      let current = opened.store;
      try {
        current = (await run(opened.store, opened.reopen)) ?? current;
      } finally {
        await current.close();
        await opened.cleanup();
      }
    };

    it("keeps the time a record was made when one is given (an import), else stamps now", () =>
      withStore(async (store, reopen) => {
        const before = Date.now();
        await store.begin(samplePaymentRecord(1, { createdAt: "2026-03-01T12:00:00.000Z" }));
        await store.begin(samplePaymentRecord(2));
        const reopened = await reopen();
        expect((await reopened.byAuthorization(samplePaymentRecord(1)))?.createdAt).toBe(
          "2026-03-01T12:00:00.000Z",
        );
        const stamped = Date.parse(
          (await reopened.byAuthorization(samplePaymentRecord(2)))?.createdAt ?? "",
        );
        expect(stamped).toBeGreaterThanOrEqual(before - 1_000);
        return reopened;
      }));

    it("finds a record by its payment id, keeps the request hash, and refuses a reused id", () =>
      withStore(async (store, reopen) => {
        const paymentId = "pay_0123456789abcdef0123";
        await store.begin(samplePaymentRecord(1, { paymentId, requestHash: "h1" }));
        await store.begin(samplePaymentRecord(2));
        expect(await store.byPaymentId(paymentId)).toMatchObject({
          nonce: samplePaymentRecord(1).nonce,
          paymentId,
          requestHash: "h1",
        });
        expect(await store.byPaymentId("pay_ffffffffffffffffffff")).toBe(undefined);
        expect(await store.byAuthorization(samplePaymentRecord(2))).toMatchObject({
          paymentId: null,
          requestHash: null,
        });
        await expect(
          store.begin(samplePaymentRecord(3, { paymentId, requestHash: "h2" })),
        ).rejects.toThrow();
        expect(await store.count()).toBe(2);
        const reopened = await reopen();
        expect((await reopened.byPaymentId(paymentId))?.requestHash).toBe("h1");
        return reopened;
      }));

    it("records a pending payment with its report, found by payer and nonce in any case", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(1);
        const begun = await store.begin(sample);
        expect(begun).toMatchObject({ status: "pending", tx: null, report: sample.report });
        const found = await store.byAuthorization({
          payer: sample.payer.toUpperCase().replace("0X", "0x"),
          nonce: sample.nonce.toUpperCase().replace("0X", "0x"),
        });
        expect(found).toMatchObject({
          status: "pending",
          amount: "10000",
          route: "/check",
          validBefore: sample.validBefore,
          report: sample.report,
        });
        expect(found?.payer).toBe(sample.payer.toLowerCase());
        expect(await store.byAuthorization({ payer: sample.payer, nonce: hex("f", 64) })).toBe(
          undefined,
        );
        return undefined;
      }));

    it("refuses a second record of the same authorization, also under concurrency", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(2);
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, () => store.begin(sample)),
        );
        expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === "rejected") {
            expect(outcome.reason).toBeInstanceOf(AuthorizationAlreadyRecorded);
          }
        }
        expect(await store.count()).toBe(1);
        return undefined;
      }));

    it("settles with a transaction found by that transaction (any case), settled is final", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(3);
        await store.begin(sample);
        const tx = hex("A", 64);
        const settled = await store.markSettled(sample, tx);
        expect(settled).toMatchObject({ status: "settled", tx: tx.toLowerCase() });
        expect(await store.byTransaction(tx)).toMatchObject({ nonce: sample.nonce });
        expect(await store.byTransaction(tx.toLowerCase())).toMatchObject({ status: "settled" });
        expect(await store.markFailed(sample)).toMatchObject({ status: "settled" });
        expect(await store.markUnknown(sample, null)).toMatchObject({ status: "settled" });
        return undefined;
      }));

    it("keeps the first report signature of a settled record only", () =>
      withStore(async (store, reopen) => {
        const sample = samplePaymentRecord(30);
        await store.begin(sample);
        // Not settled yet: nothing to sign for.
        expect(await store.keepReportSignature(sample, "early")).toMatchObject({
          reportSignature: null,
        });
        await store.markSettled(sample, hex("c", 64));
        const kept = await store.keepReportSignature(sample, "first..sig");
        expect(kept).toMatchObject({ reportSignature: "first..sig" });
        expect(await store.keepReportSignature(sample, "second..sig")).toMatchObject({
          reportSignature: "first..sig",
        });
        const reopened = await reopen();
        expect(await reopened.byTransaction(hex("c", 64))).toMatchObject({
          reportSignature: "first..sig",
        });
        expect(await reopened.keepReportSignature(samplePaymentRecord(31), "x")).toBeUndefined();
        return reopened;
      }));

    it("keeps an unknown outcome with its candidate transaction until the chain decides", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(4);
        await store.begin(sample);
        const candidate = hex("b", 64);
        expect(await store.markUnknown(sample, candidate)).toMatchObject({
          status: "unknown",
          tx: candidate,
        });
        // Not found by transaction until the chain shows it settled.
        expect(await store.byTransaction(candidate)).toBe(undefined);
        expect((await store.unresolved()).map((r) => r.nonce)).toEqual([sample.nonce]);
        expect(await store.markSettled(sample, candidate)).toMatchObject({ status: "settled" });
        expect(await store.unresolved()).toEqual([]);
        return undefined;
      }));

    it("fails a record and still lets the chain settle it later", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(5);
        await store.begin(sample);
        expect(await store.markFailed(sample)).toMatchObject({ status: "failed", tx: null });
        expect(await store.markUnknown(sample, null)).toMatchObject({ status: "failed" });
        expect(await store.markSettled(sample, hex("c", 64))).toMatchObject({
          status: "settled",
        });
        return undefined;
      }));

    it("under concurrent decisions a record the chain showed settled stays settled", () =>
      withStore(async (store) => {
        // The settlement step, the reconciler and a retry may decide one record at once: one
        // saying failed must never overwrite another's settled (the payer was charged).
        const samples = Array.from({ length: 12 }, (_, n) => samplePaymentRecord(60 + n));
        for (const sample of samples) await store.begin(sample);
        await Promise.all(
          samples.flatMap((sample, n) => [
            store.markFailed(sample),
            store.markUnknown(sample, null),
            store.markSettled(sample, hex((n % 10).toString(), 64)),
            store.markFailed(sample),
            store.markUnknown(sample, null),
            store.markFailed(sample),
          ]),
        );
        for (const [n, sample] of samples.entries()) {
          expect(await store.byAuthorization(sample)).toMatchObject({
            status: "settled",
            tx: hex((n % 10).toString(), 64),
          });
        }
        return undefined;
      }));

    it("marks nothing for an authorization it never recorded", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(6);
        expect(await store.markSettled(sample, hex("d", 64))).toBe(undefined);
        expect(await store.markUnknown(sample, null)).toBe(undefined);
        expect(await store.markFailed(sample)).toBe(undefined);
        expect(await store.count()).toBe(0);
        return undefined;
      }));

    it("lists pending and unknown records oldest first and counts by status", () =>
      withStore(async (store) => {
        for (let n = 10; n < 15; n++) await store.begin(samplePaymentRecord(n));
        await store.markSettled(samplePaymentRecord(10), hex("e", 64));
        await store.markFailed(samplePaymentRecord(11));
        await store.markUnknown(samplePaymentRecord(12), null);
        const unresolved = await store.unresolved();
        expect(unresolved.map((r) => r.status)).toEqual(["unknown", "pending", "pending"]);
        expect(unresolved.map((r) => r.nonce)).toEqual(
          [12, 13, 14].map((n) => samplePaymentRecord(n).nonce),
        );
        expect(await store.unresolved(1)).toHaveLength(1);
        expect(await store.count()).toBe(5);
        expect(await store.count("pending")).toBe(2);
        expect(await store.count("settled")).toBe(1);
        return undefined;
      }));

    it("serves open records in turns: never checked first, then those checked longest ago", () =>
      withStore(async (store) => {
        const nonces = (records: { nonce: string }[]) => records.map((r) => r.nonce);
        const sample = (n: number) => samplePaymentRecord(n);
        for (let n = 40; n < 45; n++) await store.begin(sample(n));
        expect(nonces(await store.unresolved(2))).toEqual(nonces([sample(40), sample(41)]));
        await store.markChecked([sample(40), sample(41)]);
        // The checked ones wait behind the rest: a batch of records the chain cannot decide yet
        // never holds back the next.
        expect(nonces(await store.unresolved(2))).toEqual(nonces([sample(42), sample(43)]));
        // PostgreSQL's now() is the transaction's time and SQLite's is to the millisecond: the
        // later check must be a later time.
        await new Promise((resolve) => setTimeout(resolve, 5));
        await store.markChecked([sample(42), sample(43), sample(44), sample(99)]);
        expect(nonces(await store.unresolved())).toEqual(nonces([40, 41, 42, 43, 44].map(sample)));
        // Checking neither moves a record's status nor keeps a decided one in the list.
        await store.markSettled(sample(40), hex("f", 64));
        expect(nonces(await store.unresolved(1))).toEqual(nonces([sample(41)]));
        expect(await store.byAuthorization(sample(41))).toMatchObject({ status: "pending" });
        expect(await store.count()).toBe(5);
        return undefined;
      }));

    it("lists only the open records expiring before a bound, in a batch of their own", () =>
      withStore(async (store) => {
        // Records decided by something other than time (validBefore far out) come first...
        for (let n = 30; n < 33; n++) {
          await store.begin(samplePaymentRecord(n, { validBefore: 253_402_300_799 }));
        }
        await store.begin(samplePaymentRecord(33, { validBefore: 1_900_000_000 }));
        await store.markUnknown(samplePaymentRecord(33), null);
        // ...and still the bounded batch holds the one that expires.
        const batch = await store.unresolved(2, { validBeforeBelow: 2_000_000_000 });
        expect(batch.map((r) => r.nonce)).toEqual([samplePaymentRecord(33).nonce]);
        expect(await store.unresolved(2)).toHaveLength(2);
        return undefined;
      }));

    it("refuses a malformed record", () =>
      withStore(async (store) => {
        await expect(
          store.begin({ ...samplePaymentRecord(20), nonce: "0x1234" }),
        ).rejects.toThrow();
        await expect(store.begin({ ...samplePaymentRecord(21), amount: "-1" })).rejects.toThrow();
        expect(await store.count()).toBe(0);
        return undefined;
      }));

    it("refuses a settlement that is not a transaction hash, by the one schema, and keeps the record", () =>
      withStore(async (store) => {
        const sample = samplePaymentRecord(22);
        await store.begin(sample);
        for (const tx of ["0x1234", hex("g", 64), hex("a", 63), `${hex("a", 64)}0`]) {
          await expect(store.markSettled(sample, tx)).rejects.toBeInstanceOf(ZodError);
        }
        expect(await store.byAuthorization(sample)).toMatchObject({ status: "pending", tx: null });
        return undefined;
      }));

    it("takes the readiness probe's write again and again without adding a record", () =>
      withStore(async (store) => {
        await store.writable();
        await store.writable();
        expect(await store.count()).toBe(0);
        return undefined;
      }));

    it("keeps every record across a reopen", () =>
      withStore(async (_store, reopen) => {
        const sample = samplePaymentRecord(30);
        await _store.begin(sample);
        await _store.markSettled(sample, hex("1", 64));
        const again = await reopen();
        expect(await again.byTransaction(hex("1", 64))).toMatchObject({
          status: "settled",
          report: sample.report,
        });
        return again;
      }));
  });
}

// Implementations' tests build their own records with the same helper.
export { samplePaymentRecord } from "./samplePaymentRecord";
