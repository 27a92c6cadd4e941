import { describe, expect, it } from "vitest";
import { joinNames } from "./joinNames";

describe("joinNames", () => {
  it.each([
    [[], ""],
    [["base"], "base"],
    [["base", "polygon"], "base and polygon"],
    [["base", "arbitrum", "polygon"], "base, arbitrum and polygon"],
  ])("%j -> %s", (names, expected) => {
    expect(joinNames(names)).toBe(expected);
  });

  it("joins with or when asked", () => {
    expect(joinNames(["ETH", "USDC", "USDT"], "or")).toBe("ETH, USDC or USDT");
  });
});
