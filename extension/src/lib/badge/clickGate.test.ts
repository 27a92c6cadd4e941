import { describe, expect, it } from "vitest";
import { clickAllowed, settleMs } from "./clickGate";

// The badge appeared at 1 000 ms and the browser reported it visible at 1 020 ms.
const seen = { placedAt: 1_000, supported: true, isVisible: true, visibleSince: 1_020 } as const;

describe("clickAllowed", () => {
  it("allows a click once the badge has stayed put and been seen uncovered for settleMs", () => {
    expect(clickAllowed({ ...seen, now: 1_020 + settleMs })).toEqual({ allowed: true });
    expect(clickAllowed({ ...seen, now: 60_000 })).toEqual({ allowed: true });
  });

  it("refuses a click right after the badge appeared, and says when it will count", () => {
    expect(clickAllowed({ ...seen, now: 1_200 })).toEqual({
      allowed: false,
      reason: "moved",
      readyAt: 1_020 + settleMs,
    });
    expect(clickAllowed({ ...seen, now: 1_020 + settleMs - 1 }).allowed).toBe(false);
  });

  it("refuses a click right after the badge moved, even if it was seen long before", () => {
    const moved = { ...seen, visibleSince: 100, placedAt: 5_000 };
    expect(clickAllowed({ ...moved, now: 5_100 })).toEqual({
      allowed: false,
      reason: "moved",
      readyAt: 5_000 + settleMs,
    });
    expect(clickAllowed({ ...moved, now: 5_000 + settleMs })).toEqual({ allowed: true });
  });

  it("refuses a click while something covers or fades the badge, however long it has been shown", () => {
    expect(clickAllowed({ ...seen, isVisible: false, visibleSince: null, now: 60_000 })).toEqual({
      allowed: false,
      reason: "hidden",
      readyAt: null,
    });
    // An inconsistent report (not visible, a stale since) is still not visible.
    expect(clickAllowed({ ...seen, isVisible: false, now: 60_000 }).allowed).toBe(false);
  });

  it("refuses a click just after a cover was lifted, until the badge has been seen for settleMs", () => {
    const uncovered = { ...seen, visibleSince: 10_000 };
    expect(clickAllowed({ ...uncovered, now: 10_100 })).toEqual({
      allowed: false,
      reason: "hidden",
      readyAt: 10_000 + settleMs,
    });
    expect(clickAllowed({ ...uncovered, now: 10_000 + settleMs })).toEqual({ allowed: true });
  });

  it("refuses a click before the browser's first visibility report", () => {
    const pending = { placedAt: 1_000, supported: null, isVisible: false, visibleSince: null };
    expect(clickAllowed({ ...pending, now: 1_100 })).toEqual({
      allowed: false,
      reason: "moved",
      readyAt: null,
    });
    expect(clickAllowed({ ...pending, now: 9_000 })).toEqual({
      allowed: false,
      reason: "hidden",
      readyAt: null,
    });
  });

  it("without IntersectionObserver v2 keeps only the appearance delay", () => {
    const unsupported = { placedAt: 1_000, supported: false, isVisible: false, visibleSince: null };
    expect(clickAllowed({ ...unsupported, now: 1_100 })).toEqual({
      allowed: false,
      reason: "moved",
      readyAt: 1_000 + settleMs,
    });
    expect(clickAllowed({ ...unsupported, now: 1_000 + settleMs })).toEqual({ allowed: true });
  });
});
