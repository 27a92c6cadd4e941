import { describe, expect, it } from "vitest";
import { createSessionSpendCap, type SpendCap } from "../SpendCap";
import {
  createDepositLedger,
  createMemoryDepositLedgerStore,
  type DepositLedgerState,
  type DepositLedgerStore,
} from "./createDepositLedger";

const price = 10_000n;

/** A deposit the cap holds whole under `key`, as the channel payer reserves it. */
async function deposit(cap: SpendCap, key: string, amount: bigint) {
  const reserved = await cap.reserve(amount, { key });
  if (reserved.type !== "reserved") throw new Error("expected a reservation");
  await reserved.reservation.spend();
  return key;
}

describe("createDepositLedger: the spend cap credited a channel's refund", () => {
  it("frees exactly what was refunded: two deposits, twelve checks, eight checks back", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger({ cap });
    await ledger.deposited(await deposit(cap, "one", 10n * price), 10n * price, true);
    for (let check = 0; check < 10; check += 1) await ledger.charged(price);
    await ledger.deposited(await deposit(cap, "two", 10n * price), 10n * price, true);
    for (let check = 0; check < 2; check += 1) await ledger.charged(price);
    expect(cap.spent()).toBe(20n * price);
    expect(await ledger.refunded(8n * price)).toBe(8n * price);
    expect(cap.spent()).toBe(12n * price);
  });

  it("never frees more than the deposits held less what their checks were charged", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger({ cap });
    await ledger.deposited(await deposit(cap, "one", 5n * price), 5n * price, true);
    for (let check = 0; check < 3; check += 1) await ledger.charged(price);
    // The refund says more came back than this payer's deposit left (another deposit in the
    // same channel, or a wrong answer): the cap keeps the three checks.
    expect(await ledger.refunded(50n * price)).toBe(2n * price);
    expect(cap.spent()).toBe(3n * price);
  });

  it("frees less when less came back, and nothing more at a second close", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger({ cap });
    await ledger.deposited(await deposit(cap, "one", 5n * price), 5n * price, true);
    await ledger.charged(price);
    expect(await ledger.refunded(price)).toBe(price);
    expect(cap.spent()).toBe(4n * price);
    expect(await ledger.refunded(4n * price)).toBe(0n);
    expect(cap.spent()).toBe(4n * price);
  });

  it("a refund the server made on its own frees what is known to have been left, no more", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const ledger = createDepositLedger({ cap });
    await ledger.deposited(await deposit(cap, "one", 10n * price), 10n * price, true);
    for (let check = 0; check < 4; check += 1) await ledger.charged(price);
    // A second deposit whose answer was lost: it may not have reached the channel.
    await ledger.deposited(await deposit(cap, "two", 10n * price), 10n * price, false);
    await ledger.charged(price);
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
    const plain: SpendCap = {
      reserve: async () => ({
        type: "reserved",
        reservation: { spend: async () => {}, release: async () => {} },
      }),
    };
    const ledger = createDepositLedger({ cap: plain });
    await ledger.deposited(await deposit(plain, "one", 5n * price), 5n * price, true);
    expect(await ledger.refunded(5n * price)).toBe(0n);
  });
});

describe("createDepositLedger: kept in a store shared by runs", () => {
  it("a later run's close frees what an earlier run's deposit held, less its checks", async () => {
    // One cap both runs share (the daily ledger's file), one store (the channel's directory).
    const daily = createSessionSpendCap(1_000_000n);
    const store = createMemoryDepositLedgerStore();
    const opener = createDepositLedger({ cap: daily, store });
    await opener.deposited(await deposit(daily, "deposit", 10n * price), 10n * price, true);
    await opener.charged(price);
    // A second run pays three checks from the same channel.
    const payer = createDepositLedger({ cap: daily, store });
    for (let check = 0; check < 3; check += 1) await payer.charged(price);
    // A third run closes it; the server says everything came back (more than was left).
    const closer = createDepositLedger({ cap: daily, store });
    expect(await closer.refunded(10n * price)).toBe(6n * price);
    expect(daily.spent()).toBe(4n * price);
    expect(await store.read()).toBeNull();
  });

  it("a state that cannot be read or kept credits nothing later", async () => {
    const daily = createSessionSpendCap(1_000_000n);
    let kept: DepositLedgerState | null = null;
    let failWrites = false;
    const store: DepositLedgerStore = {
      read: async () => kept,
      write: async (state) => {
        // A full disk: a new state cannot be written, but the old one can be removed.
        if (failWrites && state !== null) throw new Error("ENOSPC");
        kept = state;
      },
    };
    const ledger = createDepositLedger({ cap: daily, store });
    await ledger.deposited(await deposit(daily, "deposit", 10n * price), 10n * price, true);
    failWrites = true;
    // The check's charge cannot be written: the state that would over-credit it is removed.
    await ledger.charged(price);
    expect(kept).toBeNull();
    expect(await ledger.refunded(10n * price)).toBe(0n);
    expect(daily.spent()).toBe(10n * price);

    const unreadable: DepositLedgerStore = {
      read: async () => {
        throw new Error("EACCES");
      },
      write: async () => {},
    };
    const blind = createDepositLedger({ cap: daily, store: unreadable });
    expect(await blind.refunded(10n * price)).toBe(0n);
    expect(daily.spent()).toBe(10n * price);
  });
});
