import { describe, expect, it } from "vitest";
import { kindInWords, levelWords } from "./words";

describe("words", () => {
  it("names every level in words", () => {
    expect(Object.values(levelWords)).toEqual(["OK", "Caution", "Warning", "Danger"]);
  });

  it("prefers the report's own label, then words for the kind", () => {
    expect(kindInWords({ kind: "safe", kindLabel: "Safe (2 owners, threshold 1)" })).toBe(
      "Safe (2 owners, threshold 1)",
    );
    expect(kindInWords({ kind: "eoa", kindLabel: null })).toBe("Wallet (EOA)");
    expect(kindInWords({ kind: "eip7702-delegated", kindLabel: null })).toContain("EIP-7702");
    expect(kindInWords({ kind: null, kindLabel: null })).toBe("–");
  });
});
