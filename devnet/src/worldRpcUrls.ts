import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { World } from "./startWorld";

/**
 * Each chain's one local RPC URL, in the shape the chain reader and the server's config take.
 * @example createChainReader({ rpcUrls: worldRpcUrls(world) })
 */
export function worldRpcUrls(world: Pick<World, "chains">): Record<ChainName, string[]> {
  return Object.fromEntries(
    chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
  ) as Record<ChainName, string[]>;
}
