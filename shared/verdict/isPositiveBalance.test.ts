import { describe, expect, it } from "vitest";
import { isPositiveBalance } from "./isPositiveBalance";

const usdc = (raw: string) => ({ raw, decimals: 6, formatted: raw, symbol: "USDC" });

describe("isPositiveBalance", () => {
  it.each([
    ["one base unit", usdc("1"), true],
    ["a large amount", usdc("123456789012345678901234567890"), true],
    ["zero", usdc("0"), false],
    ["null", null, false],
    ["absent", undefined, false],
    ["a malformed amount", usdc("-5"), false],
    ["a decimal string", usdc("1.5"), false],
  ])("%s -> %s", (_, balance, expected) => {
    expect(isPositiveBalance(balance)).toBe(expected);
  });
});
