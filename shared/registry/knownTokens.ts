import tokenList from "@uniswap/default-token-list" with { type: "json" };

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
