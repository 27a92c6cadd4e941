import { describe, expect, it } from "vitest";
import { badgePosition } from "./badgePosition";

const viewport = { width: 1000, height: 800 };
const badge = { width: 300, height: 120 };

describe("badgePosition", () => {
  it("sits under the field, aligned with its left edge", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    expect(badgePosition(field, viewport, badge)).toEqual({ top: 134, left: 50 });
  });

  it("goes above the field near the bottom of the viewport", () => {
    const field = { top: 700, bottom: 730, left: 50, right: 400 };
    expect(badgePosition(field, viewport, badge)).toEqual({ top: 576, left: 50 });
  });

  it("stays inside the viewport horizontally", () => {
    const field = { top: 100, bottom: 130, left: 900, right: 990 };
    expect(badgePosition(field, viewport, badge).left).toBe(700);
  });
});
