import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { findLookalike } from "./lookalike";

const vitalik: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const poisoned: Address = "0xd8da000000000000000000000000000000006045";
const unrelated: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

describe("findLookalike", () => {
  it.each([
    ["same ends, different middle", poisoned, [vitalik], vitalik],
    ["same ends in another case", poisoned.toUpperCase().replace("0X", "0x"), [vitalik], vitalik],
    ["first match among several", poisoned, [unrelated, vitalik], vitalik],
    ["the very address is not a lookalike of itself", vitalik, [vitalik], null],
    ["itself in another case", vitalik.toLowerCase(), [vitalik], null],
    ["only the first 4 match", "0xd8da000000000000000000000000000000000000", [vitalik], null],
    ["only the last 4 match", "0x0000000000000000000000000000000000006045", [vitalik], null],
    ["3 + 4 chars match", "0xd8d0000000000000000000000000000000006045", [vitalik], null],
    ["4 + 3 chars match", "0xd8da000000000000000000000000000000000045", [vitalik], null],
    ["nothing known", poisoned, [], null],
    ["malformed candidate", "0xd8da6045", [vitalik], null],
  ] as [string, string, Address[], Address | null][])("%s", (_, candidate, known, expected) => {
    expect(findLookalike(candidate, known)).toBe(expected);
  });

  it("skips malformed known entries instead of throwing", () => {
    expect(findLookalike(poisoned, ["0x1234" as Address, vitalik])).toBe(vitalik);
  });

  it("finds the lookalike when the user's own history holds both addresses", () => {
    expect(findLookalike(poisoned, [poisoned, vitalik])).toBe(vitalik);
  });
});
