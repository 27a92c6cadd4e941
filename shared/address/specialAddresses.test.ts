import { describe, expect, it } from "vitest";
import { type ChainName, chainNames, chains } from "../chains/chains";
import { classifySpecialAddress } from "./specialAddresses";

describe("classifySpecialAddress", () => {
  it.each([
    ["0x0000000000000000000000000000000000000000", "zero", "zero address"],
    ["0x000000000000000000000000000000000000dEaD", "burn", "0x…dEaD burn address"],
    ["0x000000000000000000000000000000000000dead", "burn", "0x…dEaD burn address"],
    ["0xdead000000000000000042069420694206942069", "burn", "0xdEaD…42069 burn address"],
    ["0xdEaD000000000000000000000000000000000000", "burn", "0xdEaD… burn address"],
    ["0x0000000000000000000000000000000000000001", "precompile", "ecRecover precompile"],
    ["0x000000000000000000000000000000000000000a", "precompile", "KZG point evaluation precompile"],
    [
      "0x0000000000000000000000000000000000000011",
      "precompile",
      "BLS12-381 MAP_FP2_TO_G2 precompile",
    ],
    ["0x0000000000000000000000000000000000000100", "precompile", "P256VERIFY precompile"],
  ])("%s is %s (%s)", (address, kind, label) => {
    expect(classifySpecialAddress(address)).toEqual({ kind, label });
  });

  const stablecoinCases = chainNames.flatMap((name) => {
    const chain = chains[name];
    return [chain.usdc, chain.usdt, chain.usdcBridged]
      .filter((token) => token !== undefined)
      .map((token) => [name, token.symbol, token.address] as [ChainName, string, string]);
  });

  it.each(stablecoinCases)("%s %s at %s is a stablecoin", (chain, symbol, address) => {
    const expected = { kind: "stablecoin", label: symbol, chains: [chain] };
    expect(classifySpecialAddress(address)).toEqual(expected);
    expect(classifySpecialAddress(address.toLowerCase())).toEqual(expected);
  });

  it("knows all fourteen stablecoin contracts of the five chains", () => {
    expect(stablecoinCases).toHaveLength(14);
  });

  it.each([
    ["an ordinary wallet", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"],
    ["the address after the last BLS precompile", "0x0000000000000000000000000000000000000012"],
    ["the address after P256VERIFY", "0x0000000000000000000000000000000000000101"],
    ["Multicall3", "0xcA11bde05977b3631167028862bE2a173976CA11"],
    ["a malformed value", "0xdead"],
  ])("%s is not special", (_, address) => {
    expect(classifySpecialAddress(address)).toBeNull();
  });
});
