import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import type { SpendLedger } from "../storage/schemas";
import { StoredValueInvalidError } from "../storage/validatedItem";
import { capStartsAgainAt } from "./capStartsAgainAt";
import { createLedgerSpendCap } from "./createLedgerSpendCap";
import { createPendingSpend } from "./createPendingSpend";

const today = "2025-06-01";

function setup(spentUnits = 0, day = today, dailyCapUnits = 100_000) {
  const ledger = memoryItem<SpendLedger>({ day, spentUnits });
  const pending = createPendingSpend();
  const cap = createLedgerSpendCap({ ledger, pending, dailyCapUnits, today });
  return { ledger, pending, cap };
}

describe("createLedgerSpendCap", () => {
  it("counts a payment in today's ledger once it is sent, and holds it until then", async () => {
    const { ledger, pending, cap } = setup(10_000);
    const reserved = await cap.reserve(50_000n);
    if (reserved.type !== "reserved") throw new Error(reserved.message);
    expect(pending.total()).toBe(50_000n);
    expect(ledger.value().spentUnits).toBe(10_000);
    await reserved.reservation.spend();
    expect(pending.total()).toBe(0n);
    expect(ledger.value()).toEqual({ day: today, spentUnits: 60_000 });
  });

  it("refunds a counted payment only on release, and only once", async () => {
    // Earlier spending in the ledger: a second refund would have something to take from.
    const { ledger, cap } = setup(30_000);
    const reserved = await cap.reserve(10_000n);
    if (reserved.type !== "reserved") throw new Error(reserved.message);
    await reserved.reservation.spend();
    await reserved.reservation.release();
    await reserved.reservation.release();
    expect(ledger.value().spentUnits).toBe(30_000);
  });

  it("a payment released before it is sent frees its hold and takes nothing off the ledger", async () => {
    const { ledger, pending, cap } = setup(30_000);
    const reserved = await cap.reserve(10_000n);
    if (reserved.type !== "reserved") throw new Error(reserved.message);
    await reserved.reservation.release();
    expect(pending.total()).toBe(0n);
    expect(ledger.value().spentUnits).toBe(30_000);
  });

  it("starts a new day from zero: yesterday's spending does not count", async () => {
    const { ledger, cap } = setup(100_000, "2025-05-31");
    const reserved = await cap.reserve(10_000n);
    if (reserved.type !== "reserved") throw new Error(reserved.message);
    await reserved.reservation.spend();
    expect(ledger.value()).toEqual({ day: today, spentUnits: 10_000 });
  });

  it("lets one of two payments started together through when the cap has room for one", async () => {
    const { cap } = setup(40_000);
    const [first, second] = await Promise.all([cap.reserve(50_000n), cap.reserve(50_000n)]);
    expect([first.type, second.type].sort()).toEqual(["refused", "reserved"]);
  });

  it("says how much is left when the payment does not fit, that the cap is used up at zero, and when it starts again", async () => {
    // The person's own clock time of the next midnight UTC (capStartsAgainAt): "today" alone
    // misleads where the UTC day ends in the afternoon.
    const again = capStartsAgainAt(today);
    const { cap } = setup(99_500);
    expect(await cap.reserve(10_000n)).toEqual({
      type: "refused",
      message: `This check costs $0.01, more than the $0.0005 left of today's $0.10 cap ($0.0995 spent). Raise the cap in the settings, or try a cheaper check; the cap starts again at ${again}.`,
    });
    const full = setup(100_000);
    expect(await full.cap.reserve(1n)).toEqual({
      type: "refused",
      message: `Today's spending cap of $0.10 is used up ($0.10 spent). It starts again at ${again}; raise it in the settings to pay before then.`,
    });
  });

  it("refuses when the ledger is unreadable instead of counting from $0, and says so", async () => {
    const ledger = memoryItem<SpendLedger>({ day: today, spentUnits: 0 });
    ledger.getValue = async () => {
      throw new StoredValueInvalidError("local:spendLedger");
    };
    const cap = createLedgerSpendCap({
      ledger,
      pending: createPendingSpend(),
      dailyCapUnits: 1_000_000,
      today,
    });
    expect(cap.ledgerBroken()).toBe(false);
    expect((await cap.reserve(1n)).type).toBe("refused");
    expect(cap.ledgerBroken()).toBe(true);
  });

  it("says whether an amount fits without holding it (asked before a deposit is signed)", async () => {
    const { cap, pending } = setup(40_000);
    expect(await cap.fits(60_000n)).toBeNull();
    expect(await cap.fits(60_001n)).toMatch(/more than the \$0.06 left/);
    expect(pending.total()).toBe(0n);
    const held = await cap.reserve(30_000n);
    expect(held.type).toBe("reserved");
    // What is under way counts.
    expect(await cap.fits(40_000n)).toMatch(/more than the \$0.03 left/);
  });

  it("a channel's refund gives back what it returned, never more than the deposit counted", async () => {
    const { ledger, cap } = setup(10_000);
    const deposit = { key: "channel deposit 1" };
    const reserved = await cap.reserve(50_000n, deposit);
    if (reserved.type !== "reserved") throw new Error(reserved.message);
    // Nothing counted yet (the deposit was never sent): nothing to give back.
    expect(await cap.refund([deposit], 50_000n)).toBe(0n);
    await reserved.reservation.spend();
    expect(ledger.value().spentUnits).toBe(60_000);
    // Four checks paid from it, the close returned $0.01.
    expect(await cap.refund([deposit], 10_000n)).toBe(10_000n);
    expect(ledger.value().spentUnits).toBe(50_000);
    // A refund claiming more than the deposit still counts frees only what it counts.
    expect(await cap.refund([deposit], 90_000n)).toBe(40_000n);
    expect(ledger.value().spentUnits).toBe(10_000);
    // Released afterwards (a proven no-charge): nothing is left to give back twice.
    await reserved.reservation.release();
    expect(ledger.value().spentUnits).toBe(10_000);
  });

  it("a deposit counted on an earlier day is credited to that day only", async () => {
    const { ledger, cap } = setup(100_000);
    expect(await cap.countedDeposit(50_000n, today).refund(20_000n)).toBe(20_000n);
    expect(ledger.value()).toEqual({ day: today, spentUnits: 80_000 });
    // The ledger holds more than the deposit: only the deposit bounds what comes off.
    expect(await cap.countedDeposit(50_000n, today).refund(80_000n)).toBe(50_000n);
    expect(ledger.value()).toEqual({ day: today, spentUnits: 30_000 });
    // Yesterday's deposit: today's spending does not include it, so nothing comes off it.
    const later = setup(30_000);
    expect(await later.cap.countedDeposit(50_000n, "2025-05-31").refund(20_000n)).toBe(0n);
    expect(later.ledger.value()).toEqual({ day: today, spentUnits: 30_000 });
  });
});
