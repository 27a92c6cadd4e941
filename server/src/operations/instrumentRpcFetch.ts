import type { ChainName } from "@presend/shared/chains/chains";
import type { Metrics } from "../observability/createMetrics";

/**
 * Wraps the chain reader's fetch to time every upstream JSON-RPC request per chain and count the
 * failed ones (HTTP error or no answer), for /metrics. The URL is matched to its chain, never logged.
 * @example createChainReader({ rpcUrls, fetch: instrumentRpcFetch(rpcUrls, metrics) })
 */
export function instrumentRpcFetch(
  rpcUrls: Record<ChainName, readonly string[]>,
  metrics: Metrics,
  inner: typeof fetch = globalThis.fetch,
): typeof fetch {
  const chainOf = new Map<string, ChainName>();
  for (const [chain, urls] of Object.entries(rpcUrls) as Array<[ChainName, string[]]>) {
    for (const url of urls) chainOf.set(url, chain);
  }
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const chain = chainOf.get(url) ?? "other";
    const started = performance.now();
    try {
      const response = await inner(input, init);
      if (!response.ok) metrics.upstreamErrors.inc({ chain });
      return response;
    } catch (error) {
      metrics.upstreamErrors.inc({ chain });
      throw error;
    } finally {
      metrics.upstreamSeconds.observe({ chain }, (performance.now() - started) / 1000);
    }
  };
}
