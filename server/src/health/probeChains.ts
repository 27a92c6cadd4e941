import type { ChainName } from "@presend/shared/chains/chains";
import { chainNames, chains } from "@presend/shared/chains/chains";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { boundedFetch } from "../http/boundedFetch";

export type ChainHealth = {
  name: ChainName;
  chainId: number;
  reachable: boolean;
  blockNumber: string | null;
  latencyMs: number | null;
  error?: string;
};

export type ProbeChainsOptions = {
  rpcUrls: Record<ChainName, string[]>;
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/**
 * Asks each chain for its block number (first URL that answers wins) to tell which chains are reachable.
 * @example const health = await probeChains({ rpcUrls });
 */
export async function probeChains(options: ProbeChainsOptions): Promise<ChainHealth[]> {
  // An answer is a few hundred bytes; a huge one is cut at 1 MB instead of read whole.
  const doFetch = options.fetch ?? boundedFetch();
  const timeoutMs = options.timeoutMs ?? 2_000;
  return Promise.all(
    chainNames.map(async (name): Promise<ChainHealth> => {
      const errors: string[] = [];
      for (const [index, url] of options.rpcUrls[name].entries()) {
        const started = performance.now();
        try {
          const response = await doFetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
            signal: AbortSignal.timeout(timeoutMs),
          });
          const body = (await response.json()) as { result?: unknown };
          if (typeof body.result !== "string")
            throw new UpstreamError("no block number in the answer");
          return {
            name,
            chainId: chains[name].id,
            reachable: true,
            blockNumber: BigInt(body.result).toString(),
            latencyMs: Math.round(performance.now() - started),
          };
        } catch (error) {
          // By its place in the list, as the chain reader names it: no host or key in an answer.
          errors.push(
            `endpoint ${index + 1}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return {
        name,
        chainId: chains[name].id,
        reachable: false,
        blockNumber: null,
        latencyMs: null,
        error: errors.join("; ") || "no RPC URL configured",
      };
    }),
  );
}
