import type { Hex } from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuthorizationKey, PaymentRecord } from "../records/paymentRecords";
import { channelRecordValidBefore } from "./channelLedger";
import type { ChannelStore } from "./channelStore";
import { sampleChannel } from "./channelStoreContract";
import type { ChannelChain, ChannelClaim } from "./createChannelChain";
import { openSqliteChannelStore } from "./openSqliteChannelStore";
import { reconcileChannelCharges, unchargedGraceMs } from "./reconcileChannelCharges";

// The reconciler's decisions, one branch each, over a real channel store and a fake escrow (the
// chain is the boundary faked here: its claimed totals and Claimed events are set per test).
const channelA = `0x${"a".repeat(64)}`;
const channelB = `0x${"b".repeat(64)}`;
const payer = `0x${"1".repeat(40)}`;
const nonce = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const key = (n: number): AuthorizationKey => ({ payer, nonce: nonce(n) });
const tx = (digit: string) => `0x${digit.repeat(64)}` as Hex;

/**
 * An escrow holding these claimed totals, balances (default: far above every charge) and Claimed
 * events (newest first, as claimsAbove returns them).
 */
function escrow(state: {
  totals: Record<string, bigint | Error>;
  balances?: Record<string, bigint>;
  claims?: Record<string, ChannelClaim[] | Error>;
}): Pick<ChannelChain, "channel" | "claimsAbove" | "receiverTotals"> & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async channel(channelId) {
      asked.push(channelId);
      const total = state.totals[channelId] ?? 0n;
      if (total instanceof Error) throw total;
      const balance = state.balances?.[channelId] ?? 1_000_000_000n;
      return { balance, totalClaimed: total, withdrawRequestedAt: 0 };
    },
    async claimsAbove(channelId, above) {
      const claims = state.claims?.[channelId] ?? [];
      if (claims instanceof Error) throw claims;
      return claims.filter((claim) => claim.to > above);
    },
    async receiverTotals() {
      return { claimed: 0n, settled: 0n };
    },
  };
}

/**
 * The payment records as the reconciler reads and marks them; `created` sets a record's age, and
 * the records of `settled` nonces read as settled.
 */
function recordBook(created: Record<string, number> = {}, settled: string[] = []) {
  const marks: { nonce: string; status: "settled" | "failed"; tx?: string }[] = [];
  return {
    marks,
    records: {
      async markSettled(k: AuthorizationKey, settledTx: string) {
        marks.push({ nonce: k.nonce, status: "settled", tx: settledTx });
        return undefined;
      },
      async markFailed(k: AuthorizationKey) {
        marks.push({ nonce: k.nonce, status: "failed" });
        return undefined;
      },
      async byAuthorization(k: AuthorizationKey): Promise<PaymentRecord | undefined> {
        const at = created[k.nonce];
        if (at === undefined) return undefined;
        const time = new Date(at).toISOString();
        return {
          payer: k.payer,
          nonce: k.nonce,
          network: "eip155:8453",
          asset: `0x${"5".repeat(40)}`,
          payTo: `0x${"3".repeat(40)}`,
          route: "/check",
          amount: "100",
          validBefore: channelRecordValidBefore,
          report: {},
          paymentId: null,
          requestHash: null,
          status: settled.includes(k.nonce) ? "settled" : "pending",
          tx: null,
          reportSignature: null,
          createdAt: time,
          updatedAt: time,
        };
      },
    },
  };
}

describe("reconcileChannelCharges", () => {
  let store: ChannelStore;
  beforeEach(() => {
    store = openSqliteChannelStore(":memory:");
  });
  afterEach(async () => {
    await store.close();
  });

  async function charge(n: number, channelId: string, cumulative: bigint, committed: boolean) {
    await store.addCharge({ key: key(n), channelId, cumulative });
    if (committed) await store.commitCharge(key(n));
  }

  it("settles committed charges the claimed total covers, each with the claim that crossed it", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelA, 200n, true);
    await charge(3, channelA, 300n, true);
    const chain = escrow({
      totals: { [channelA]: 300n },
      claims: {
        [channelA]: [
          { from: 200n, to: 300n, tx: tx("e") },
          { from: 0n, to: 200n, tx: tx("d") },
        ],
      },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 3,
      failed: 0,
      open: 0,
    });
    expect(marks).toEqual(
      expect.arrayContaining([
        { nonce: nonce(1), status: "settled", tx: tx("d") },
        { nonce: nonce(2), status: "settled", tx: tx("d") },
        { nonce: nonce(3), status: "settled", tx: tx("e") },
      ]),
    );
    expect(marks).toHaveLength(3);
    expect(await store.unclaimedCharges()).toEqual([]);
  });

  it("settles a lone uncommitted charge the claim covers (its process stopped between the charge and the mark)", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelA, 200n, false);
    const chain = escrow({
      totals: { [channelA]: 200n },
      claims: { [channelA]: [{ from: 0n, to: 200n, tx: tx("d") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 2,
      failed: 0,
      open: 0,
    });
    expect(marks).toContainEqual({ nonce: nonce(2), status: "settled", tx: tx("d") });
  });

  it("fails an uncommitted charge beside a committed one at the same ceiling (the refused attempt), settling the committed one", async () => {
    await charge(1, channelA, 100n, false);
    await charge(2, channelA, 100n, true);
    const chain = escrow({
      totals: { [channelA]: 100n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 1,
      failed: 1,
      open: 0,
    });
    expect(marks).toEqual(
      expect.arrayContaining([
        { nonce: nonce(1), status: "failed" },
        { nonce: nonce(2), status: "settled", tx: tx("d") },
      ]),
    );
    // Both are off the open list: neither is decided again.
    expect(await store.unclaimedCharges()).toEqual([]);
  });

  it("never fails a committed charge, even beside another committed one at its ceiling", async () => {
    // The scheme charges a ceiling once, so this should not happen; if it ever did, both payers
    // were told they were charged, and failing either record would take a paid report away.
    await charge(1, channelA, 100n, true);
    await charge(2, channelA, 100n, true);
    const chain = escrow({
      totals: { [channelA]: 100n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 2,
      failed: 0,
      open: 0,
    });
    expect(marks.filter((mark) => mark.status === "failed")).toEqual([]);
  });

  it("fails no uncommitted charge beside only other uncommitted ones at its ceiling (one of them was charged)", async () => {
    await charge(1, channelA, 100n, false);
    await charge(2, channelA, 100n, false);
    const chain = escrow({
      totals: { [channelA]: 100n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toMatchObject({ failed: 0 });
    expect(marks.filter((mark) => mark.status === "failed")).toEqual([]);
  });

  it("leaves charges above the claimed total open, and marks nothing for them", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelA, 200n, true);
    const chain = escrow({
      totals: { [channelA]: 100n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 1,
      failed: 0,
      open: 1,
    });
    expect(marks).toEqual([{ nonce: nonce(1), status: "settled", tx: tx("d") }]);
    expect((await store.unclaimedCharges()).map((open) => open.key.nonce)).toEqual([nonce(2)]);
  });

  describe("a charged voucher above what the escrow still holds (its payer withdrew the rest)", () => {
    // The escrow claimed 100 and holds 150: the charge at 200 can never be claimed, the one at
    // 150 still can.
    const chain = escrow({
      totals: { [channelA]: 100n },
      balances: { [channelA]: 150n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });

    it("is failed and leaves the index; the channel is cut to the balance, so no later claim reaches it", async () => {
      await store.updateChannel(channelA, () => sampleChannel(channelA, 200n));
      await charge(1, channelA, 100n, true);
      await charge(2, channelA, 150n, true);
      await charge(3, channelA, 200n, true);
      const { records, marks } = recordBook();
      expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
        settled: 1,
        failed: 1,
        open: 1,
      });
      expect(marks).toEqual(
        expect.arrayContaining([
          { nonce: nonce(1), status: "settled", tx: tx("d") },
          { nonce: nonce(3), status: "failed" },
        ]),
      );
      expect(marks).toHaveLength(2);
      expect((await store.unclaimedCharges()).map((open) => open.key.nonce)).toEqual([nonce(2)]);
      expect(await store.get(channelA)).toMatchObject({
        chargedCumulativeAmount: "150",
        balance: "150",
        totalClaimed: "100",
      });
    });

    it("stays open while its channel serves a request (that request's charge counts from the stored total)", async () => {
      await store.updateChannel(channelA, () => ({
        ...sampleChannel(channelA, 200n),
        pendingRequest: {
          pendingId: "p",
          signedMaxClaimable: "300",
          expiresAt: Date.now() + 60_000,
        },
      }));
      await charge(3, channelA, 200n, true);
      const { records, marks } = recordBook();
      expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
      expect((await store.get(channelA))?.chargedCumulativeAmount).toBe("200");
    });

    it("stays open when a request used its channel after the escrow was read (a deposit may have raised the balance)", async () => {
      await store.updateChannel(channelA, () => sampleChannel(channelA, 200n));
      await charge(3, channelA, 200n, true);
      // A deposit's check lands between the escrow's read and the cut.
      const racing: typeof chain = {
        ...chain,
        async channel(channelId) {
          const read = await chain.channel(channelId);
          await store.updateChannel(channelA, (current) =>
            current === undefined
              ? current
              : { ...current, chargedCumulativeAmount: "300", lastRequestTimestamp: Date.now() },
          );
          return read;
        },
      };
      const { records, marks } = recordBook();
      expect(await reconcileChannelCharges({ store, records, chain: racing })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
      expect((await store.get(channelA))?.chargedCumulativeAmount).toBe("300");
    });
  });

  it("leaves a charge claimed before the log window open, never guessing its transaction", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelA, 200n, true);
    // The escrow's total covers both, but the only Claimed event still in the window is the
    // one from 100 to 200: the claim that covered 100 is older than the window.
    const chain = escrow({
      totals: { [channelA]: 200n },
      claims: { [channelA]: [{ from: 100n, to: 200n, tx: tx("e") }] },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 1,
      failed: 0,
      open: 1,
    });
    expect(marks).toEqual([{ nonce: nonce(2), status: "settled", tx: tx("e") }]);
    expect((await store.unclaimedCharges()).map((open) => open.key.nonce)).toEqual([nonce(1)]);
  });

  it("changes nothing for a channel whose claimed total or claims cannot be read", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelB, 100n, true);
    const chain = escrow({
      totals: { [channelA]: new Error("endpoint down"), [channelB]: 100n },
      claims: { [channelB]: new Error("logs refused") },
    });
    const { records, marks } = recordBook();
    expect(await reconcileChannelCharges({ store, records, chain })).toEqual({
      settled: 0,
      failed: 0,
      open: 2,
    });
    expect(marks).toEqual([]);
    expect(await store.unclaimedCharges()).toHaveLength(2);
  });

  it("reads only the channels it is given (after a claim of those)", async () => {
    await charge(1, channelA, 100n, true);
    await charge(2, channelB, 100n, true);
    const chain = escrow({
      totals: { [channelA]: 100n, [channelB]: 100n },
      claims: {
        [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }],
        [channelB]: [{ from: 0n, to: 100n, tx: tx("e") }],
      },
    });
    const { records, marks } = recordBook();
    const result = await reconcileChannelCharges({
      store,
      records,
      chain,
      channelIds: [channelB.toUpperCase().replace("0X", "0x")],
    });
    expect(result).toEqual({ settled: 1, failed: 0, open: 0 });
    expect(chain.asked).toEqual([channelB]);
    expect(marks).toEqual([{ nonce: nonce(2), status: "settled", tx: tx("e") }]);
  });

  describe("an uncommitted charge above everything its channel charged (never charged, or lost in a crash)", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    // Exactly as old as the grace: the first moment it is judged.
    const old = now - unchargedGraceMs;
    const chain = escrow({
      totals: { [channelA]: 100n },
      claims: { [channelA]: [{ from: 0n, to: 100n, tx: tx("d") }] },
    });
    const channelCharged = (charged: bigint) =>
      store.updateChannel(channelA, () => sampleChannel(channelA, charged));

    it("is failed once its record is as old as the grace, and leaves the index", async () => {
      await channelCharged(100n);
      await charge(1, channelA, 100n, true);
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(1)]: old, [nonce(2)]: old });
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 1,
        failed: 1,
        open: 0,
      });
      expect(marks).toEqual(
        expect.arrayContaining([
          { nonce: nonce(1), status: "settled", tx: tx("d") },
          { nonce: nonce(2), status: "failed" },
        ]),
      );
      expect(await store.unclaimedCharges()).toEqual([]);
    });

    it("stays open while its record is within the grace (its request may still be running)", async () => {
      await channelCharged(100n);
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(2)]: now - unchargedGraceMs + 1 });
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
      // Far longer than a paid request runs (its payment times out after 60 s).
      expect(unchargedGraceMs).toBe(10 * 60_000);
    });

    it("stays open when its record is already settled (never failed over a charge)", async () => {
      await channelCharged(100n);
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(2)]: old }, [nonce(2)]);
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
    });

    it("stays open when its record cannot be read (the next pass decides it)", async () => {
      await channelCharged(100n);
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(2)]: old });
      const unreadable = {
        ...records,
        byAuthorization: async () => {
          throw new Error("the records database went away");
        },
      };
      expect(await reconcileChannelCharges({ store, records: unreadable, chain, now })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
      expect(await store.unclaimedCharges()).toHaveLength(1);
    });

    it("stays open when the channel did charge it (the next claim covers it)", async () => {
      await channelCharged(200n);
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(2)]: old });
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 0,
        failed: 0,
        open: 1,
      });
      expect(marks).toEqual([]);
    });

    it("is failed above the claimed total once its channel was refunded and left the store", async () => {
      await charge(2, channelA, 200n, false);
      const { records, marks } = recordBook({ [nonce(2)]: old });
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 0,
        failed: 1,
        open: 0,
      });
      expect(marks).toEqual([{ nonce: nonce(2), status: "failed" }]);
    });

    it("stays open without a record (nothing stands pending for it) and when committed", async () => {
      await channelCharged(100n);
      await charge(2, channelA, 200n, false);
      await charge(3, channelA, 300n, true);
      const { records, marks } = recordBook({ [nonce(3)]: old });
      expect(await reconcileChannelCharges({ store, records, chain, now })).toEqual({
        settled: 0,
        failed: 0,
        open: 2,
      });
      expect(marks).toEqual([]);
    });
  });
});
