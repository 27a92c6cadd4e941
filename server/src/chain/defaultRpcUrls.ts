import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { viemChains } from "@presend/shared/chains/viemChains";

// Well-known keyless public endpoints, after the one viem ships for each chain. Operators
// replace them through config; these only make a mainnet run work out of the box. Each is run by
// a different operator than viem's default, so one provider's outage leaves a fallback.
const extra: Record<ChainName, string[]> = {
  base: ["https://base-rpc.publicnode.com", "https://base.llamarpc.com"],
  ethereum: ["https://ethereum-rpc.publicnode.com", "https://eth.llamarpc.com"],
  arbitrum: ["https://arbitrum-one-rpc.publicnode.com", "https://arbitrum.llamarpc.com"],
  optimism: ["https://optimism-rpc.publicnode.com", "https://optimism.llamarpc.com"],
  polygon: ["https://polygon-bor-rpc.publicnode.com", "https://polygon.llamarpc.com"],
};

/**
 * Public mainnet RPC endpoints per chain, in the order the chain reader tries them.
 * @example createChainReader({ rpcUrls: defaultRpcUrls })
 */
export const defaultRpcUrls: Record<ChainName, string[]> = Object.fromEntries(
  chainNames.map((name) => [
    name,
    [...new Set([...viemChains[name].rpcUrls.default.http, ...extra[name]])],
  ]),
) as Record<ChainName, string[]>;
