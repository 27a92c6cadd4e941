import type { ChainFacts } from "../api/report";
import { type ChainInfo, type ChainName, chains } from "../chains/chains";

/**
 * The facts of a chain that could not be read: every fact is null and `error` says why.
 * @example unavailableFacts("optimism", "all RPC endpoints failed: HTTP 503")
 */
export function unavailableFacts(name: ChainName, error: string): ChainFacts {
  // Callers outside TypeScript can pass any string; an unknown chain must still not throw.
  const info = chains[name] as ChainInfo | undefined;
  return {
    name,
    chainId: info?.id ?? 0,
    status: "unavailable",
    error,
    isContract: null,
    kind: null,
    kindLabel: null,
    outgoingTxs: null,
    native: null,
    usdc: null,
    usdt: null,
    ...(info?.usdcBridged ? { usdcBridged: null } : {}),
    gas: null,
    blockNumber: null,
  };
}
