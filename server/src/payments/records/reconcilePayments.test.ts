import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { openSqlitePaymentRecords } from "../../paymentRecords/openSqlitePaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import type { PaymentChain } from "../facilitator/createPaymentChain";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { reconcilePayments, settleGraceSeconds } from "./reconcilePayments";

const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;

describe("reconcilePayments", () => {
  it("settles what the chain shows used, fails what expired unused, leaves the rest open", async () => {
    const records = createMemoryPaymentRecords();
    const validBefore = 1_900_000_000;
    const usedUnknown = samplePaymentRecord(1, { validBefore });
    const expiredUnknown = samplePaymentRecord(2, { validBefore });
    const freshPending = samplePaymentRecord(3, { validBefore: validBefore + 10_000 });
    const usedPendingAfterCrash = samplePaymentRecord(4, { validBefore });
    for (const record of [usedUnknown, expiredUnknown, freshPending, usedPendingAfterCrash]) {
      await records.begin(record);
    }
    await records.markUnknown(usedUnknown, null);
    await records.markUnknown(expiredUnknown, tx(99));
    const chain = fakePaymentChain({
      now: validBefore + settleGraceSeconds + 1,
      used: new Map([
        [usedUnknown.nonce, tx(1)],
        [usedPendingAfterCrash.nonce, tx(4)],
      ]),
    });

    expect(await reconcilePayments({ records, chain })).toEqual({ settled: 2, failed: 1, open: 1 });
    expect(await records.byAuthorization(usedUnknown)).toMatchObject({
      status: "settled",
      tx: tx(1),
    });
    expect(await records.byAuthorization(usedPendingAfterCrash)).toMatchObject({
      status: "settled",
      tx: tx(4),
    });
    expect(await records.byAuthorization(expiredUnknown)).toMatchObject({ status: "failed" });
    expect(await records.byAuthorization(freshPending)).toMatchObject({ status: "pending" });
  });

  it("keeps an unknown record open while it could still settle", async () => {
    const records = createMemoryPaymentRecords();
    const record = samplePaymentRecord(5, { validBefore: 1_900_000_000 });
    await records.begin(record);
    await records.markUnknown(record, null);
    const chain = fakePaymentChain({ now: 1_900_000_000 - 10, used: new Map() });
    expect(await reconcilePayments({ records, chain })).toEqual({ settled: 0, failed: 0, open: 1 });
    expect(await records.byAuthorization(record)).toMatchObject({ status: "unknown" });
  });

  it("fails an authorization the payer cancelled, at once, and keeps one used by no transfer it can find open", async () => {
    const records = createMemoryPaymentRecords();
    const validBefore = 1_900_000_000;
    const canceled = samplePaymentRecord(7, { validBefore });
    const usedUnfound = samplePaymentRecord(8, { validBefore });
    for (const record of [canceled, usedUnfound]) {
      await records.begin(record);
      await records.markUnknown(record, null);
    }
    const chain = fakePaymentChain({
      // Still within its validity: only the cancellation proves it can never be charged.
      now: validBefore - 10,
      used: new Map(),
      canceled: new Set([canceled.nonce]),
    });
    // The token says used, but the transaction that used it is not in the log window.
    const usedBeyondWindow: PaymentChain = {
      ...chain,
      authorizationUsed: async (payer, nonce) =>
        nonce === usedUnfound.nonce || chain.authorizationUsed(payer, nonce),
    };
    expect(await reconcilePayments({ records, chain: usedBeyondWindow })).toEqual({
      settled: 0,
      failed: 1,
      open: 1,
    });
    expect(await records.byAuthorization(canceled)).toMatchObject({ status: "failed" });
    expect(await records.byAuthorization(usedUnfound)).toMatchObject({ status: "unknown" });
  });

  it("fails an authorization used by no transfer in any block where one could be, once past its validBefore and the grace", async () => {
    const records = createMemoryPaymentRecords();
    const validBefore = 1_900_000_000;
    const spent = samplePaymentRecord(9, { validBefore });
    await records.begin(spent);
    await records.markUnknown(spent, null);
    // The token says used; the transfer search over its window finds nothing; the cancellation
    // (which may lie anywhere after it) is not in the window searched.
    const atGrace = fakePaymentChain({ now: validBefore + settleGraceSeconds, used: new Map() });
    // Up to the grace's last second the transfer may still show: it stays open.
    expect(
      await reconcilePayments({
        records,
        chain: { ...atGrace, authorizationUsed: async () => true },
      }),
    ).toEqual({ settled: 0, failed: 0, open: 1 });
    const base = fakePaymentChain({ now: validBefore + settleGraceSeconds + 1, used: new Map() });
    const spentOutsideWindow: PaymentChain = {
      ...base,
      authorizationUsed: async () => true,
    };
    expect(await reconcilePayments({ records, chain: spentOutsideWindow })).toEqual({
      settled: 0,
      failed: 1,
      open: 0,
    });
    expect(await records.byAuthorization(spent)).toMatchObject({ status: "failed" });
    // A search that could not be read decides nothing.
    const other = samplePaymentRecord(19, { validBefore });
    await records.begin(other);
    await records.markUnknown(other, null);
    const unreadable: PaymentChain = {
      ...spentOutsideWindow,
      findAuthorizationTx: async () => {
        throw new Error("log_search_exhausted");
      },
    };
    expect(await reconcilePayments({ records, chain: unreadable })).toEqual({
      settled: 0,
      failed: 0,
      open: 1,
    });
    expect(await records.byAuthorization(other)).toMatchObject({ status: "unknown" });
  });

  it("gives every open record its turn: 201 the chain cannot decide do not hold back one it can", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-reconcile-"));
    const records = openSqlitePaymentRecords(join(dir, "payments.sqlite"));
    try {
      const validBefore = 1_900_000_000;
      for (let n = 1; n <= 201; n++) {
        await records.begin(samplePaymentRecord(n, { validBefore }));
        await records.markUnknown(samplePaymentRecord(n), null);
      }
      const decidable = samplePaymentRecord(500, { validBefore });
      await records.begin(decidable);
      await records.markUnknown(decidable, null);
      const settledBy = tx(500);
      // Every older record's transfer search fails (an endpoint that cannot serve it); the
      // newest one's transfer is on chain.
      const base = fakePaymentChain({
        now: validBefore + settleGraceSeconds + 1,
        used: new Map([[decidable.nonce, settledBy]]),
      });
      const chain: PaymentChain = {
        ...base,
        authorizationUsed: async () => true,
        findAuthorizationTx: async (payer, nonce) => {
          if (nonce === decidable.nonce) return base.findAuthorizationTx(payer, nonce);
          throw new Error("the payment chain's logs could not be searched in time");
        },
      };
      expect(await reconcilePayments({ records, chain })).toEqual({
        settled: 0,
        failed: 0,
        open: 200,
      });
      expect(await records.byAuthorization(decidable)).toMatchObject({ status: "unknown" });
      // The next pass starts with the records not looked at yet.
      expect(await reconcilePayments({ records, chain })).toMatchObject({ settled: 1 });
      expect(await records.byAuthorization(decidable)).toMatchObject({
        status: "settled",
        tx: settledBy,
      });
      expect(await records.count("unknown")).toBe(201);
    } finally {
      await records.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds the grace to the second: unused at validBefore + grace is still open (pending or unknown), one second later failed", async () => {
    const validBefore = 1_900_000_000;
    const atBoundary = async (now: number) => {
      const records = createMemoryPaymentRecords();
      const pending = samplePaymentRecord(10, { validBefore });
      const unknown = samplePaymentRecord(11, { validBefore });
      await records.begin(pending);
      await records.begin(unknown);
      await records.markUnknown(unknown, null);
      const result = await reconcilePayments({
        records,
        chain: fakePaymentChain({ now, used: new Map() }),
      });
      return {
        result,
        pending: (await records.byAuthorization(pending))?.status,
        unknown: (await records.byAuthorization(unknown))?.status,
      };
    };
    expect(await atBoundary(validBefore + settleGraceSeconds)).toEqual({
      result: { settled: 0, failed: 0, open: 2 },
      pending: "pending",
      unknown: "unknown",
    });
    expect(await atBoundary(validBefore + settleGraceSeconds + 1)).toEqual({
      result: { settled: 0, failed: 2, open: 0 },
      pending: "failed",
      unknown: "failed",
    });
    // The grace is the chain's minute of blocks and clocks, not less.
    expect(settleGraceSeconds).toBe(60);
  });

  it("settles with the broadcast transaction its receipt shows succeeded, when the transfer logs cannot be searched", async () => {
    const records = createMemoryPaymentRecords();
    const validBefore = 1_900_000_000;
    const broadcast = samplePaymentRecord(12, { validBefore });
    await records.begin(broadcast);
    await records.markUnknown(broadcast, tx(12));
    const base = fakePaymentChain({
      now: validBefore + settleGraceSeconds + 1,
      used: new Map([[broadcast.nonce, tx(12)]]),
    });
    const logsUnreadable: PaymentChain = {
      ...base,
      findAuthorizationTx: async () => {
        throw new Error("log_search_exhausted");
      },
    };
    expect(await reconcilePayments({ records, chain: logsUnreadable })).toEqual({
      settled: 1,
      failed: 0,
      open: 0,
    });
    expect(await records.byAuthorization(broadcast)).toMatchObject({
      status: "settled",
      tx: tx(12),
    });
  });

  it("leaves a pending record to the request serving it until validBefore + grace, even one the chain shows used", async () => {
    const validBefore = 1_900_000_000;
    const inFlight = samplePaymentRecord(13, { validBefore });
    const reconcileAt = async (now: number) => {
      const records = createMemoryPaymentRecords();
      await records.begin(inFlight);
      const chain = fakePaymentChain({ now, used: new Map([[inFlight.nonce, tx(13)]]) });
      const result = await reconcilePayments({ records, chain });
      return { result, status: (await records.byAuthorization(inFlight))?.status };
    };
    expect(await reconcileAt(validBefore + settleGraceSeconds)).toEqual({
      result: { settled: 0, failed: 0, open: 1 },
      status: "pending",
    });
    expect(await reconcileAt(validBefore + settleGraceSeconds + 1)).toEqual({
      result: { settled: 1, failed: 0, open: 0 },
      status: "settled",
    });
  });

  it("changes nothing while the chain cannot be read", async () => {
    const records = createMemoryPaymentRecords();
    const record = samplePaymentRecord(6, { validBefore: 1 });
    await records.begin(record);
    await records.markUnknown(record, null);
    const chain = fakePaymentChain({ now: 2_000_000_000, used: new Map(), down: true });
    expect(await reconcilePayments({ records, chain })).toEqual({ settled: 0, failed: 0, open: 1 });
    expect(await records.byAuthorization(record)).toMatchObject({ status: "unknown" });
  });
});
