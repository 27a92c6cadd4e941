import { chainNames, chains } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { devnetStablecoins } from "./devnetStablecoins";

describe("devnetStablecoins", () => {
  it("puts native USDC with x402's EIP-712 domain (USD Coin, 2) at the mainnet address", () => {
    for (const name of chainNames) {
      const [nativeUsdc] = devnetStablecoins(name);
      expect(nativeUsdc).toEqual({ ...chains[name].usdc, name: "USD Coin", version: "2" });
    }
  });

  it("adds USDT everywhere and the bridged variant only where the chain has one", () => {
    for (const name of chainNames) {
      const symbols = devnetStablecoins(name).map((token) => token.symbol);
      const bridged = chains[name].usdcBridged;
      expect(symbols).toEqual(["USDC", "USDT", ...(bridged ? [bridged.symbol] : [])]);
      expect(devnetStablecoins(name).every((token) => token.decimals === 6)).toBe(true);
    }
  });
});
