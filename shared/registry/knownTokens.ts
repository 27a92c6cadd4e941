import tokenList from "@uniswap/default-token-list" with { type: "json" };
import { type ChainName, chainNames, chains } from "../chains/chains";

export type KnownToken = { symbol: string; name: string };

// One map per chain id, built once: "<chainId>:<lower-case address>" -> token.
const tokens = new Map<string, KnownToken>(
  tokenList.tokens.map((token) => [
    `${token.chainId}:${token.address.toLowerCase()}`,
    { symbol: token.symbol, name: token.name },
  ]),
);

/**
 * A token contract on the Uniswap default token list (npm `@uniswap/default-token-list`).
 * @example findKnownToken(8453, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")?.symbol // "USDC"
 */
export function findKnownToken(chainId: number, address: string): KnownToken | undefined {
  return tokens.get(`${chainId}:${address.toLowerCase()}`);
}

/**
 * The chains among presend's five where `address` is a listed token, with its symbol on each: a
 * contract's address, so nobody holds a key for it on any chain.
 * @example findKnownTokenChains("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2") // [{ chain: "ethereum", symbol: "WETH" }]
 */
export function findKnownTokenChains(address: string): { chain: ChainName; symbol: string }[] {
  return chainNames.flatMap((chain) => {
    const token = findKnownToken(chains[chain].id, address);
    return token ? [{ chain, symbol: token.symbol }] : [];
  });
}
