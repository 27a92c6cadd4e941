import { describe, expect, it } from "vitest";
import { parseDollarAmount } from "./parseDollarAmount";

describe("parseDollarAmount", () => {
  it("reads cents after a point, or after a comma as German and Hindi number settings write them", () => {
    expect(parseDollarAmount("7.50")).toBe(7_500_000);
    expect(parseDollarAmount(" 5 ")).toBe(5_000_000);
    expect(parseDollarAmount("$0.05")).toBe(50_000);
    expect(parseDollarAmount(".5")).toBe(500_000);
    expect(parseDollarAmount("7,50")).toBe(7_500_000);
    expect(parseDollarAmount("0,5")).toBe(500_000);
  });

  it("refuses what is no amount, and a comma that could mean thousands, rather than guess", () => {
    for (const text of [
      "",
      "lots",
      "-1",
      "1e3",
      "0x10",
      "1,000",
      "1.000,50",
      "7,50,1",
      "Infinity",
    ]) {
      expect(parseDollarAmount(text), text).toBeNull();
    }
  });
});
