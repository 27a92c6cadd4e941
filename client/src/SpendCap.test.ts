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

  it("says how much is used in the refusal", async () => {
    const cap = createSessionSpendCap(5_000n);
    expect(await cap.reserve(10_000n)).toEqual({
      type: "refused",
      message: "Spend cap reached: 0 of 0.005 USDC used; this check costs 0.01.",
    });
  });
});
