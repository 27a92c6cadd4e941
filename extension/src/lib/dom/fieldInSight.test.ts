import { describe, expect, it } from "vitest";
import { fieldInSight } from "./fieldInSight";

// A field as the browser would measure it: its box, what checkVisibility says, the viewport.
function field(
  box: { left: number; top: number; width: number; height: number },
  visible = true,
): Element {
  return {
    checkVisibility: () => visible,
    getBoundingClientRect: () => ({
      ...box,
      right: box.left + box.width,
      bottom: box.top + box.height,
    }),
    ownerDocument: { defaultView: { innerWidth: 1000, innerHeight: 600 } },
  } as unknown as Element;
}

const row = { left: 20, top: 100, width: 400, height: 30 };

describe("fieldInSight", () => {
  it("sees a field drawn in the viewport, even partly", () => {
    expect(fieldInSight(field(row))).toBe(true);
    expect(fieldInSight(field({ ...row, top: 590 }))).toBe(true);
    expect(fieldInSight(field({ ...row, left: -300 }))).toBe(true);
  });

  it("does not see a field hidden, transparent or one pixel wide", () => {
    expect(fieldInSight(field(row, false))).toBe(false);
    expect(fieldInSight(field({ ...row, width: 1, height: 1 }))).toBe(false);
  });

  it("does not see a field off-screen or a scroll away", () => {
    expect(fieldInSight(field({ ...row, left: -9_999 }))).toBe(false);
    expect(fieldInSight(field({ ...row, top: -9_999 }))).toBe(false);
    expect(fieldInSight(field({ ...row, top: 3_000 }))).toBe(false);
    expect(fieldInSight(field({ ...row, left: 1_000 }))).toBe(false);
  });
});
