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

  it("covers the fewest controls, never the field, when every place covers something", () => {
    const field = { top: 300, bottom: 330, left: 50, right: 990 };
    const everywhere = [
      { top: 0, bottom: 290, left: 0, right: 1000 },
      { top: 340, bottom: 345, left: 0, right: 1000 },
    ];
    const placed = badgePosition(field, viewport, card, "card", everywhere);
    expect(placed).toEqual({ top: 336, left: 50 });
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
});
