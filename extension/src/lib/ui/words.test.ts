import { describe, expect, it } from "vitest";
import { decisionWords, kindInWords, levelWords, plainWords } from "./words";

describe("words", () => {
  it("names every level in words", () => {
    expect(Object.values(levelWords)).toEqual(["OK", "Caution", "Warning", "Danger"]);
  });

  it("says each level's decision", () => {
    expect(decisionWords).toEqual({
      ok: "Looks fine to send",
      caution: "Check with the recipient",
      warn: "Check with the recipient",
      danger: "Don't send",
    });
  });

  it("names kinds in plain words, a Safe by its own label", () => {
    expect(kindInWords({ kind: "safe", kindLabel: "Safe (2 owners, threshold 1)" })).toBe(
      "Safe (2 owners, threshold 1)",
    );
    expect(kindInWords({ kind: "eoa", kindLabel: "EOA" })).toBe("Wallet");
    expect(
      kindInWords({
        kind: "eip7702-delegated",
        kindLabel: "EIP-7702 account delegating to an unknown contract",
      }),
    ).toBe("Smart wallet (upgraded account)");
    expect(kindInWords({ kind: null, kindLabel: null })).toBe("–");
  });

  it("writes a report's sentence with chain names and without EOA", () => {
    expect(plainWords("Active wallet (EOA) on base")).toBe("Active wallet on Base");
    expect(plainWords("Active on arbitrum, not on base")).toBe(
      "Active on Arbitrum One, not on Base",
    );
    expect(plainWords("An EOA that never sent; an EOA on polygon")).toBe(
      "A wallet that never sent; a wallet on Polygon PoS",
    );
  });
});
