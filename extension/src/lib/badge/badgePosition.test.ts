import { describe, expect, it } from "vitest";
import { badgePosition, cardHasRoom } from "./badgePosition";

const viewport = { width: 1000, height: 800 };
const chip = { width: 110, height: 22 };
const card = { width: 380, height: 300 };

describe("badgePosition", () => {
  it("puts the chip beside the field's right edge, centred on one line", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    expect(badgePosition(field, viewport, chip, "chip")).toEqual({ top: 104, left: 406 });
  });

  it("puts the chip above the field's right end when the viewport has no room beside it", () => {
    const field = { top: 100, bottom: 130, left: 8, right: 990 };
    expect(badgePosition(field, viewport, chip, "chip")).toEqual({ top: 76, left: 880 });
  });

  it("puts the chip under the field's right end at the very top of a narrow viewport", () => {
    const field = { top: 4, bottom: 34, left: 8, right: 990 };
    expect(badgePosition(field, viewport, chip, "chip")).toEqual({ top: 36, left: 880 });
  });

  it("moves the chip off a control beside the field: above its right end", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    const button = { top: 100, bottom: 130, left: 410, right: 520 };
    expect(badgePosition(field, viewport, chip, "chip", [button])).toEqual({ top: 76, left: 290 });
  });

  it("keeps the chip on screen above the right end of a field wider than the viewport", () => {
    const field = { top: 100, bottom: 130, left: 8, right: 1200 };
    expect(badgePosition(field, viewport, chip, "chip")).toEqual({ top: 76, left: 888 });
  });

  it("levels the chip with the field's top or bottom edge in a tight column of fields", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    const rowBelow = { top: 124, bottom: 140, left: 406, right: 520 };
    const rowAbove = { top: 90, bottom: 106, left: 406, right: 520 };
    expect(badgePosition(field, viewport, chip, "chip", [rowBelow])).toEqual({
      top: 100,
      left: 406,
    });
    expect(badgePosition(field, viewport, chip, "chip", [rowAbove])).toEqual({
      top: 108,
      left: 406,
    });
  });

  it("moves the chip past a control beside the field when the rows around it are taken", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    const send = { top: 100, bottom: 130, left: 406, right: 520 };
    const rowAbove = { top: 60, bottom: 98, left: 50, right: 520 };
    const rowBelow = { top: 132, bottom: 170, left: 50, right: 520 };
    expect(badgePosition(field, viewport, chip, "chip", [send, rowAbove, rowBelow])).toEqual({
      top: 104,
      left: 526,
    });
  });

  it("keeps the chip beside a field the viewport's bottom edge cuts, not over the field above", () => {
    // Tab scrolled the field just into view: its bottom a fraction of a pixel past the edge.
    const field = { top: 779, bottom: 800.2, left: 30, right: 200 };
    const fieldAbove = { top: 758, bottom: 779, left: 46, right: 224 };
    expect(badgePosition(field, viewport, chip, "chip", [fieldAbove])).toEqual({
      top: 778,
      left: 230,
    });
    const narrowerAbove = { ...fieldAbove, right: 190 };
    expect(badgePosition(field, viewport, chip, "chip", [narrowerAbove])).toEqual({
      top: 778,
      left: 206,
    });
  });

  it("keeps the chip near the top of a tall field", () => {
    const field = { top: 100, bottom: 300, left: 50, right: 400 };
    expect(badgePosition(field, viewport, chip, "chip").top).toBe(106);
  });

  it("opens the card beside the field when the viewport is wide enough", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    expect(badgePosition(field, viewport, card, "card")).toEqual({ top: 100, left: 406 });
  });

  it("opens the card under the field, aligned with its left edge", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 700 };
    expect(badgePosition(field, viewport, card, "card")).toEqual({ top: 136, left: 50 });
  });

  it("opens the card above the field near the bottom of the viewport", () => {
    const field = { top: 700, bottom: 730, left: 50, right: 700 };
    expect(badgePosition(field, viewport, card, "card")).toEqual({ top: 394, left: 50 });
  });

  it("opens a card that fits neither above nor below on the field's left", () => {
    const field = { top: 300, bottom: 330, left: 900, right: 990 };
    const tall = { width: 380, height: 600 };
    expect(badgePosition(field, viewport, tall, "card")).toEqual({ top: 192, left: 514 });
  });

  it("opens the card where it covers no control: below the field when its right has a neighbour", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    const neighbour = { top: 90, bottom: 400, left: 420, right: 700 };
    expect(badgePosition(field, viewport, card, "card", [neighbour])).toEqual({
      top: 136,
      left: 50,
    });
  });

  it("opens the card beside the field past the controls on its right", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    const send = { top: 100, bottom: 130, left: 410, right: 500 };
    const widerFieldBelow = { top: 140, bottom: 170, left: 510, right: 600 };
    expect(badgePosition(field, viewport, card, "card", [send, widerFieldBelow])).toEqual({
      top: 100,
      left: 606,
    });
  });

  it("pins the card inside the viewport, at its bottom, when no place beside the field fits", () => {
    const phone = { width: 360, height: 640 };
    const field = { top: 300, bottom: 336, left: 8, right: 352 };
    expect(badgePosition(field, phone, { width: 344, height: 320 }, "card")).toEqual({
      top: 312,
      left: 8,
    });
  });

  it("covers the fewest controls, never the field, when every place covers something", () => {
    const field = { top: 300, bottom: 330, left: 50, right: 990 };
    const everywhere = [
      { top: 0, bottom: 290, left: 0, right: 1000 },
      { top: 340, bottom: 345, left: 0, right: 1000 },
    ];
    const placed = badgePosition(field, viewport, card, "card", everywhere);
    expect(placed).toEqual({ top: 336, left: 50 });
  });

  it("picks the place covering least when each of four places covers a control", () => {
    const field = { top: 400, bottom: 430, left: 400, right: 600 };
    const controls = [
      { top: 400, bottom: 700, left: 900, right: 1000 }, // beside: 300 × 86
      { top: 730, bottom: 800, left: 400, right: 780 }, // below: 6 × 380
      { top: 0, bottom: 104, left: 0, right: 1000 }, // above: 10 × 380
      { top: 400, bottom: 700, left: 0, right: 30 }, // left: 300 × 16
    ];
    expect(badgePosition(field, viewport, card, "card", controls)).toEqual({ top: 436, left: 400 });
  });
});

describe("cardHasRoom", () => {
  it("finds room beside a field on a wide screen", () => {
    const field = { top: 100, bottom: 130, left: 50, right: 400 };
    expect(cardHasRoom(field, viewport, card)).toBe(true);
  });

  it("finds none on a phone, where every place covers the field, the amount or the Send button", () => {
    const phone = { width: 360, height: 640 };
    const field = { top: 200, bottom: 236, left: 8, right: 352 };
    const send = { top: 244, bottom: 280, left: 8, right: 120 };
    const amount = { top: 160, bottom: 190, left: 8, right: 352 };
    expect(cardHasRoom(field, phone, { width: 344, height: 320 }, [send, amount])).toBe(false);
  });

  it("finds none where the only place left covers the field", () => {
    const phone = { width: 360, height: 640 };
    const field = { top: 300, bottom: 336, left: 8, right: 352 };
    expect(cardHasRoom(field, phone, { width: 344, height: 320 })).toBe(false);
  });

  it("finds none for a card wider than the viewport", () => {
    const phone = { width: 360, height: 640 };
    const field = { top: 10, bottom: 40, left: 8, right: 352 };
    expect(cardHasRoom(field, phone, { width: 400, height: 320 })).toBe(false);
  });
});
