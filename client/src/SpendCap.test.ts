import { describe, expect, it } from "vitest";
import { createSessionSpendCap } from "./SpendCap";

describe("createSessionSpendCap", () => {
  it("counts payments under way, so two at once cannot both pass", async () => {
    const cap = createSessionSpendCap(15_000n);
    const first = await cap.reserve(10_000n);
    expect(first.type).toBe("reserved");
    expect(await cap.reserve(10_000n)).toMatchObject({ type: "refused" });
    expect(cap.spent()).toBe(10_000n);
  });

  it("frees an amount released on proof of no charge, once", async () => {
    const cap = createSessionSpendCap(10_000n);
    const first = await cap.reserve(10_000n);
    if (first.type !== "reserved") throw new Error("expected a reservation");
    await first.reservation.spend();
    await first.reservation.release();
    await first.reservation.release();
    expect(cap.spent()).toBe(0n);
    expect((await cap.reserve(10_000n)).type).toBe("reserved");
  });

  it("says what one more payment could reserve, never below zero", async () => {
    const cap = createSessionSpendCap(15_000n);
    expect(await cap.available()).toBe(15_000n);
    await cap.reserve(10_000n);
    expect(await cap.available()).toBe(5_000n);
    await cap.reserve(5_000n);
    expect(await cap.available()).toBe(0n);
  });

  it("says how much is used in the refusal", async () => {
    const cap = createSessionSpendCap(5_000n);
    expect(await cap.reserve(10_000n)).toEqual({
      type: "refused",
      message:
        "Spend cap reached: $0.00 of $0.005 in USDC used; this payment needs $0.01 (a check its price, a channel deposit the whole deposit).",
    });
  });

  it("holds a payment once, however many calls carry its payment id", async () => {
    const cap = createSessionSpendCap(20_000n);
    const first = await cap.reserve(10_000n, { key: "api payment-one" });
    const retry = await cap.reserve(10_000n, { key: "api payment-one" });
    if (first.type !== "reserved" || retry.type !== "reserved") throw new Error("expected both");
    expect(cap.spent()).toBe(10_000n);
    // The retry turned out not charged; the first call's payment is still held.
    await retry.reservation.release();
    expect(cap.spent()).toBe(10_000n);
    expect((await cap.reserve(10_000n, { key: "api payment-two" })).type).toBe("reserved");
    expect(await cap.reserve(1n)).toMatchObject({ type: "refused" });
    // Only when no call of the payment holds it any more is it freed.
    await first.reservation.release();
    expect(cap.spent()).toBe(10_000n);
  });
});

describe("createSessionSpendCap: a refund of part of earlier payments", () => {
  it("frees what came back, never more than it holds of the payments named, the first first", async () => {
    const cap = createSessionSpendCap(200_000n);
    const first = await cap.reserve(50_000n, { key: "deposit one" });
    const second = await cap.reserve(30_000n, { key: "deposit two" });
    const check = await cap.reserve(10_000n, { key: "check" });
    if (first.type !== "reserved" || second.type !== "reserved" || check.type !== "reserved") {
      throw new Error("expected all three");
    }
    const deposits = [{ key: "deposit two" }, { key: "deposit one" }];
    expect(await cap.refund(deposits, 20_000n)).toBe(20_000n);
    expect(cap.spent()).toBe(70_000n);
    // Asked for more than the deposits still hold (10 000 + 50 000): only that comes back; the
    // check, not named, stays held.
    expect(await cap.refund(deposits, 90_000n)).toBe(60_000n);
    expect(cap.spent()).toBe(10_000n);
    expect(await cap.refund(deposits, 1n)).toBe(0n);
    // A payment released (nothing charged) holds nothing to refund; one never held neither.
    await check.reservation.release();
    expect(await cap.refund([{ key: "check" }, { key: "unknown" }], 10_000n)).toBe(0n);
    expect(cap.spent()).toBe(0n);
  });
});
