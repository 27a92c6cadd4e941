import { describe, expect, it } from "vitest";
import { multicall3Address } from "../chains/chains";
import { findWalletCode } from "./knownWalletCode";

// keccak256 of Simple7702Account's published runtime code (@account-abstraction/contracts 0.8.0).
const simple7702CodeHash = "0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3";

describe("findWalletCode", () => {
  it("names the wallet delegates of the registry, in any case", () => {
    expect(findWalletCode("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B", null)).toEqual({
      name: "MetaMask",
      role: "eip7702-delegate",
      matchedBy: "address",
    });
    expect(findWalletCode("0xE6CAE83BDE06E4C305530E199D7217F42808555B", null)?.role).toBe(
      "eip7702-delegate",
    );
  });

  it("names a copy of a wallet delegate known by its code, at any address", () => {
    expect(findWalletCode(`0x${"12".repeat(20)}`, simple7702CodeHash)).toEqual({
      name: "Simple7702Account",
      role: "eip7702-delegate",
      matchedBy: "codeHash",
    });
  });

  it("names the smart-account implementations behind proxies", () => {
    expect(findWalletCode("0x000100abaad02f1cfC8Bbe32bD5a564817339E72", null)).toEqual({
      name: "Coinbase Smart Wallet",
      role: "implementation",
      matchedBy: "address",
    });
  });

  it("is not about sweepers, helpers or anything else", () => {
    // A known sweeper (BundleBear "Crime") and a helper (Multicall3) are no wallet's code.
    expect(findWalletCode("0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d", null)).toBeUndefined();
    expect(findWalletCode(multicall3Address, null)).toBeUndefined();
    expect(findWalletCode("0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA", null)).toBeUndefined();
    expect(findWalletCode(`0x${"12".repeat(20)}`, `0x${"ab".repeat(32)}`)).toBeUndefined();
  });
});
