import type { Chain } from "viem";
import { arbitrum, base, mainnet, optimism, polygon } from "viem/chains";
import type { ChainName } from "./chains";

/**
 * viem's definitions of the five chains. Kept apart from `chains.ts` so code that only needs
 * names, ids and token addresses (the extension's content script) does not bundle them.
 * @example createPublicClient({ chain: viemChains.base, transport: http(url) });
 */
export const viemChains: Record<ChainName, Chain> = {
  base,
  ethereum: mainnet,
  arbitrum,
  optimism,
  polygon,
};
