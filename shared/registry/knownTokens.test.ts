import { describe, expect, it } from "vitest";
import { findKnownToken, findKnownTokenChains } from "./knownTokens";

describe("knownTokens", () => {
  it("finds a listed token by chain id and address in any case", () => {
    expect(findKnownToken(8453, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913")?.symbol).toBe("USDC");
    expect(findKnownToken(1, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")).toBeUndefined();
  });

  it("names every one of the five chains where an address is a listed token", () => {
    expect(findKnownTokenChains("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")).toEqual([
      { chain: "ethereum", symbol: "WETH" },
    ]);
    // WETH sits at the same OP Stack predeploy address on Base and OP Mainnet.
    expect(
      findKnownTokenChains("0x4200000000000000000000000000000000000006").map(
        (entry) => entry.chain,
      ),
    ).toEqual(["base", "optimism"]);
    expect(findKnownTokenChains("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045")).toEqual([]);
  });
});
