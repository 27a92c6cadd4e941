import { describe, expect, it } from "vitest";
import { createSessionSpendCap, type Reservation } from "../SpendCap";
import { createDepositLedger } from "./createDepositLedger";

const price = 10_000n;

async function deposit(cap: ReturnType<typeof createSessionSpendCap>, amount: bigint) {
  const reserved = await cap.reserve(amount);
  if (reserved.type !== "reserved") throw new Error("expected a reservation");
  await reserved.reservation.spend();
  return reserved.reservation;
}

describe("createDepositLedger: the spend cap credited a channel's refund", () => {
  it("frees exactly what was refunded: two deposits, twelve checks, eight checks back", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger();
    ledger.deposited(await deposit(cap, 10n * price), 10n * price, true);
    for (let check = 0; check < 10; check += 1) ledger.charged(price);
    ledger.deposited(await deposit(cap, 10n * price), 10n * price, true);
    for (let check = 0; check < 2; check += 1) ledger.charged(price);
    expect(cap.spent()).toBe(20n * price);
    expect(await ledger.refunded(8n * price)).toBe(8n * price);
    expect(cap.spent()).toBe(12n * price);
  });

  it("never frees more than the deposits held less what their checks were charged", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger();
    ledger.deposited(await deposit(cap, 5n * price), 5n * price, true);
    for (let check = 0; check < 3; check += 1) ledger.charged(price);
    // The refund says more came back than this payer's deposit left (another deposit in the
    // same channel, or a wrong answer): the cap keeps the three checks.
    expect(await ledger.refunded(50n * price)).toBe(2n * price);
    expect(cap.spent()).toBe(3n * price);
  });

  it("frees less when less came back, and nothing more at a second close", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger();
    ledger.deposited(await deposit(cap, 5n * price), 5n * price, true);
    ledger.charged(price);
    expect(await ledger.refunded(price)).toBe(price);
    expect(cap.spent()).toBe(4n * price);
    expect(await ledger.refunded(4n * price)).toBe(0n);
    expect(cap.spent()).toBe(4n * price);
  });

  it("a refund the server made on its own frees what is known to have been left, no more", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger();
    ledger.deposited(await deposit(cap, 10n * price), 10n * price, true);
    for (let check = 0; check < 4; check += 1) ledger.charged(price);
    // A second deposit whose answer was lost: it may not have reached the channel.
    ledger.deposited(await deposit(cap, 10n * price), 10n * price, false);
    ledger.charged(price);
    expect(cap.spent()).toBe(20n * price);
    // Landed: 10 checks' worth; charged or maybe charged: 5. The refund sent back at least 5.
    expect(await ledger.refundedUnstated()).toBe(5n * price);
    expect(cap.spent()).toBe(15n * price);
    // The ledger starts over: nothing more is freed.
    expect(await ledger.refundedUnstated()).toBe(0n);
    expect(await ledger.refunded(10n * price)).toBe(0n);
    expect(cap.spent()).toBe(15n * price);
  });

  it("a cap that cannot take a refund keeps the deposit counted", async () => {
    const ledger = createDepositLedger();
    const held: Reservation = { spend: async () => {}, release: async () => {} };
    ledger.deposited(held, 5n * price, true);
    expect(await ledger.refunded(5n * price)).toBe(0n);
  });
});
