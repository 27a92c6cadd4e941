import { type ChainName, multicall3Address } from "@presend/shared/chains/chains";
import { viemChains } from "@presend/shared/chains/viemChains";
import { type Chain, defineChain } from "viem";

/**
 * The viem definition of one of the five chains, pointed at a local RPC URL. Multicall3 is kept
 * (the world installs it) without `blockCreated`, which a fresh local chain has not reached.
 * @example const chain = localViemChain("base", world.chains.base.rpcUrl);
 */
export function localViemChain(name: ChainName, rpcUrl: string): Chain {
  return defineChain({
    ...viemChains[name],
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: multicall3Address } },
  });
}
