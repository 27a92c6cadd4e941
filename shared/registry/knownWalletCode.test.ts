import { describe, expect, it } from "vitest";
import { multicall3Address } from "../chains/chains";
import { findWalletCode } from "./knownWalletCode";

describe("findWalletCode", () => {
  it("names the wallet delegates of the registry, in any case", () => {
    expect(findWalletCode("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B")).toEqual({
      name: "MetaMask",
      role: "eip7702-delegate",
    });
    expect(findWalletCode("0xE6CAE83BDE06E4C305530E199D7217F42808555B")?.role).toBe(
      "eip7702-delegate",
    );
  });

  it("names the smart-account implementations behind proxies", () => {
    expect(findWalletCode("0x000100abaad02f1cfC8Bbe32bD5a564817339E72")).toEqual({
      name: "Coinbase Smart Wallet",
      role: "implementation",
    });
  });

  it("is not about sweepers, helpers or anything else", () => {
    // A known sweeper (BundleBear "Crime") and a helper (Multicall3) are no wallet's code.
    expect(findWalletCode("0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d")).toBeUndefined();
    expect(findWalletCode(multicall3Address)).toBeUndefined();
    expect(findWalletCode("0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA")).toBeUndefined();
  });
});
