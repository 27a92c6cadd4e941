import { DEFAULT_ASSETS } from "@x402/evm";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  chainById,
  chainNames,
  chains,
  gasPriceOracleAddress,
  isChainName,
  multicall3Address,
  nativeUsdcDomain,
} from "./chains";
import { viemChains } from "./viemChains";

// Our table is the one source of chain data in this repository; viem's definitions are the
// world's. These tests fail the day the two disagree.
describe.each(chainNames)("%s", (name) => {
  const ours = chains[name];
  const viems = viemChains[name];

  it("has viem's chain id, and the CAIP-2 name x402 uses for it", () => {
    expect(ours.id).toBe(viems.id);
    expect(ours.caip2).toBe(`eip155:${viems.id}`);
  });

  it("has viem's native currency symbol", () => {
    expect(ours.nativeSymbol).toBe(viems.nativeCurrency.symbol);
  });

  it("has Multicall3 where viem says it is", () => {
    const viemsMulticall3 = viems.contracts?.multicall3?.address;
    expect(viemsMulticall3).toBeDefined();
    expect(getAddress(viemsMulticall3 as string)).toBe(multicall3Address);
  });

  it("is an OP-stack chain exactly where viem names a GasPriceOracle, at the predeploy", () => {
    const viemsOracle = (viems.contracts as { gasPriceOracle?: { address: string } } | undefined)
      ?.gasPriceOracle?.address;
    expect(ours.opStack === true).toBe(viemsOracle !== undefined);
    if (viemsOracle) expect(getAddress(viemsOracle)).toBe(gasPriceOracleAddress);
  });

  it("names its stablecoins with checksummed addresses and 6 decimals", () => {
    for (const token of [ours.usdc, ours.usdt, ...(ours.usdcBridged ? [ours.usdcBridged] : [])]) {
      expect(token.address).toBe(getAddress(token.address));
      expect(token.decimals).toBe(6);
    }
  });

  it("is found by its id and by its name", () => {
    expect(chainById(ours.id)).toBe(ours);
    expect(isChainName(name)).toBe(true);
    expect(ours.name).toBe(name);
  });
});

describe("chains", () => {
  it("has five distinct ids and refuses names it does not know", () => {
    expect(new Set(chainNames.map((name) => chains[name].id)).size).toBe(5);
    expect(chainById(84532)).toBeUndefined();
    expect(isChainName("sepolia")).toBe(false);
  });
});

// x402's own table of the assets its exact scheme pays in: where it names a chain's USDC, our
// address and EIP-712 domain must be the ones it signs for.
describe("native USDC against @x402/evm's default assets", () => {
  const named = chainNames.filter((name) => DEFAULT_ASSETS[chains[name].caip2] !== undefined);

  it("covers Base, the chain presend is paid on", () => {
    expect(named).toContain("base");
  });

  it.each(named)("%s: the same USDC address, name and version", (name) => {
    const theirs = DEFAULT_ASSETS[chains[name].caip2]?.find((asset) => asset.symbol === "USDC");
    expect(theirs?.asset).toBe(chains[name].usdc.address);
    expect({ name: theirs?.name, version: theirs?.version }).toEqual(nativeUsdcDomain);
  });
});
