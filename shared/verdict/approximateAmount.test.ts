import { describe, expect, it } from "vitest";
import { approximateAmount } from "./approximateAmount";

const eth = (raw: string) => ({ raw, decimals: 18, formatted: `raw ${raw}`, symbol: "ETH" });

describe("approximateAmount", () => {
  it.each([
    ["gas at 1 gwei for 21000", eth("21000000000000"), 2, "0.000021"],
    ["rounds down", eth("21004200000000"), 2, "0.000021"],
    ["rounds half up", eth("21500000000000"), 2, "0.000022"],
    ["carries into a new digit", eth("99600000000000"), 2, "0.0001"],
    ["keeps integer digits", eth("1234567891000000000000000"), 2, "1234568"],
    ["keeps a short amount whole", eth("1500000000000000000"), 6, "1.5"],
    ["six significant digits", eth("12345678900000000000"), 6, "12.3457"],
    ["zero", eth("0"), 2, "0"],
    ["malformed raw shows the formatted text", eth("0x10"), 2, "raw 0x10"],
  ])("%s", (_, balance, digits, expected) => {
    expect(approximateAmount(balance, digits)).toBe(expected);
  });
});
