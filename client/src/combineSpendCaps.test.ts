import { describe, expect, it } from "vitest";
import { combineSpendCaps } from "./combineSpendCaps";
import { createSessionSpendCap, type PaymentKey, type SpendCap } from "./SpendCap";

/** A cap with no refunds and no idea of what it has left, as a third party might write. */
function plainCap(limit: bigint): SpendCap & { held(): bigint } {
  let held = 0n;
  return {
    held: () => held,
    async reserve(amount) {
      if (held + amount > limit) return { type: "refused", message: "plain cap reached" };
      held += amount;
      let released = false;
      return {
        type: "reserved",
        reservation: {
          spend: async () => {},
          release: async () => {
            if (released) return;
            released = true;
            held -= amount;
          },
        },
      };
    },
  };
}

const reserved = async (cap: SpendCap, amount: bigint, payment?: PaymentKey) => {
  const answer = await cap.reserve(amount, payment);
  if (answer.type !== "reserved") throw new Error(`refused: ${answer.message}`);
  return answer.reservation;
};

describe("combineSpendCaps", () => {
  it("holds a payment in every cap, and one refused by any cap in none", async () => {
    const session = createSessionSpendCap(100_000n);
    const daily = createSessionSpendCap(15_000n);
    const both = combineSpendCaps([session, daily]);
    await reserved(both, 10_000n);
    expect([session.spent(), daily.spent()]).toEqual([10_000n, 10_000n]);
    // The session has room, the daily cap does not: refused, and the session holds nothing more.
    expect(await both.reserve(10_000n)).toMatchObject({
      type: "refused",
      message: expect.stringContaining("$0.01 of $0.015"),
    });
    expect([session.spent(), daily.spent()]).toEqual([10_000n, 10_000n]);
  });

  it("releases in every cap what was not charged", async () => {
    const session = createSessionSpendCap(100_000n);
    const daily = createSessionSpendCap(100_000n);
    const reservation = await reserved(combineSpendCaps([session, daily]), 30_000n);
    await reservation.release();
    expect([session.spent(), daily.spent()]).toEqual([0n, 0n]);
  });

  it("says it freed on a refund only what every cap freed", async () => {
    const deposit = { key: "deposit" };
    const session = createSessionSpendCap(100_000n);
    const plain = plainCap(100_000n);
    const withPlain = combineSpendCaps([session, plain]);
    await (await reserved(withPlain, 50_000n, deposit)).spend();
    // The plain cap keeps counting the deposit: nothing is said to be back.
    expect(await withPlain.refund?.([deposit], 20_000n)).toBe(0n);
    expect(plain.held()).toBe(50_000n);

    const first = createSessionSpendCap(100_000n);
    const second = createSessionSpendCap(100_000n);
    const both = combineSpendCaps([first, second]);
    await reserved(both, 50_000n, deposit);
    expect(await both.refund?.([deposit], 20_000n)).toBe(20_000n);
    expect([first.spent(), second.spent()]).toEqual([30_000n, 30_000n]);
  });

  it("frees in each cap what it holds of the payments, though another holds none of them", async () => {
    // A later CLI run: its session cap never held the deposit an earlier run made; the daily
    // ledger they share still counts it, and gets back what came back.
    const deposit = { key: "deposit" };
    const daily = createSessionSpendCap(100_000n);
    await reserved(daily, 50_000n, deposit);
    const laterSession = createSessionSpendCap(100_000n);
    const laterRun = combineSpendCaps([laterSession, daily]);
    expect(await laterRun.refund?.([deposit], 30_000n)).toBe(0n);
    expect([laterSession.spent(), daily.spent()]).toEqual([0n, 20_000n]);
  });

  it("has left what the tightest cap has left, and says nothing when no cap can tell", async () => {
    const session = createSessionSpendCap(100_000n);
    const daily = createSessionSpendCap(40_000n);
    const both = combineSpendCaps([session, plainCap(10_000n), daily]);
    expect(await both.available?.()).toBe(40_000n);
    await reserved(session, 70_000n);
    expect(await both.available?.()).toBe(30_000n);
    expect(combineSpendCaps([plainCap(10_000n)]).available).toBeUndefined();
  });
});
