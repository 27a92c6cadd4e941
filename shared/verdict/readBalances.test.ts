import { describe, expect, it } from "vitest";
import { readableFacts } from "./chainFacts.test-helpers";
import { readBalances } from "./readBalances";

describe("readBalances", () => {
  it("names the balances read on the chain, and those held", () => {
    expect(readBalances(readableFacts("base", { usdc: "5" }))).toEqual({
      read: ["ETH", "USDC", "USDT", "USDbC"],
      held: ["USDC"],
    });
    expect(readBalances(readableFacts("polygon", { native: "1" })).held).toEqual(["POL"]);
    expect(readBalances(readableFacts("ethereum")).read).toEqual(["ETH", "USDC", "USDT"]);
  });

  it("leaves out a balance that could not be read", () => {
    expect(readBalances({ ...readableFacts("ethereum"), usdt: null }).read).toEqual([
      "ETH",
      "USDC",
    ]);
  });
});
