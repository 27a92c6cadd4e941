import { formatUnits, parseUnits } from "viem";
import type { AddressKind, Balance, ChainFacts } from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { unavailableFacts } from "./unavailableFacts";

export type FactsSpec = {
  kind?: AddressKind;
  nonce?: number;
  /** Human amounts, e.g. "1.5". */
  native?: string;
  usdc?: string;
  usdt?: string;
  /** Only on chains that have a bridged USDC variant. */
  bridged?: string;
  delegate?: string;
  /** Gas price in wei; null for an unreadable gas price. */
  gasPriceWei?: bigint | null;
};

/**
 * A balance built from a human amount, as the chain reader reports it.
 * @example balanceOf("1.5", "USDC", 6) // { raw: "1500000", decimals: 6, formatted: "1.5", symbol: "USDC" }
 */
export function balanceOf(amount: string, symbol: string, decimals: number): Balance {
  return { raw: parseUnits(amount, decimals).toString(), decimals, formatted: amount, symbol };
}

function gasCost(gasPriceWei: bigint, gas: bigint, symbol: string): Balance {
  const raw = gasPriceWei * gas;
  return { raw: raw.toString(), decimals: 18, formatted: formatUnits(raw, 18), symbol };
}

/**
 * Facts of a readable chain; by default a fresh EOA (nonce 0, no balances) at 1 gwei.
 * @example readableFacts("base", { kind: "safe", nonce: 1, usdc: "40" })
 */
export function readableFacts(name: ChainName, spec: FactsSpec = {}): ChainFacts {
  const chain = chains[name];
  const kind = spec.kind ?? "eoa";
  const gasPriceWei = spec.gasPriceWei === undefined ? 1_000_000_000n : spec.gasPriceWei;
  return {
    name,
    chainId: chain.id,
    status: "ok",
    isContract: kind !== "eoa",
    kind,
    kindLabel: kind,
    ...(spec.delegate ? { delegate: spec.delegate } : {}),
    outgoingTxs: spec.nonce ?? 0,
    native: balanceOf(spec.native ?? "0", chain.nativeSymbol, 18),
    usdc: balanceOf(spec.usdc ?? "0", chain.usdc.symbol, chain.usdc.decimals),
    usdt: balanceOf(spec.usdt ?? "0", chain.usdt.symbol, chain.usdt.decimals),
    usdcBridged: chain.usdcBridged
      ? balanceOf(spec.bridged ?? "0", chain.usdcBridged.symbol, chain.usdcBridged.decimals)
      : null,
    gas:
      gasPriceWei === null
        ? null
        : {
            gasPriceWei: gasPriceWei.toString(),
            nativeTransferCost: gasCost(gasPriceWei, 21_000n, chain.nativeSymbol),
            tokenTransferCost: gasCost(gasPriceWei, 65_000n, chain.nativeSymbol),
          },
    blockNumber: "100",
  };
}

/**
 * Facts of a chain that could not be read: every fact is null.
 * @example unreadableFacts("optimism", "HTTP 503")
 */
export function unreadableFacts(name: ChainName, error = "request timed out"): ChainFacts {
  return unavailableFacts(name, error);
}
