import { type ChainName, chains } from "@presend/shared/chains/chains";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { boundedFetch } from "../http/boundedFetch";

/** The endpoints one setting gives a chain (RPC_URLS_BASE's, HISTORY_RPC_URLS_POLYGON's, …). */
export type ChainEndpoints = { setting: string; chain: ChainName; urls: readonly string[] };

/**
 * The endpoints among `endpoints` that answer another chain's id than the one their setting is
 * for, one line each naming the setting, the endpoint's place in its list and the chain id it
 * answered (never its host or path, which may hold an API key). Such an endpoint would have every
 * report on that chain describe another chain, and its payments fail: start-up stops on it. An
 * endpoint that does not answer now is not judged here: it is a chain unavailable, which the
 * readers and /health report, not a wrong setting.
 * @example const problems = await wrongChainEndpoints([{ setting: "RPC_URLS_BASE", chain: "base", urls }], { timeoutMs: 4000 });
 */
export async function wrongChainEndpoints(
  endpoints: readonly ChainEndpoints[],
  options: { timeoutMs: number; fetch?: typeof fetch },
): Promise<string[]> {
  const doFetch = options.fetch ?? boundedFetch();
  const answers = await Promise.all(
    endpoints.flatMap(({ setting, chain, urls }) =>
      urls.map(async (url, index) => {
        const answered = await chainIdOf(url, doFetch, options.timeoutMs).catch(() => null);
        const expected = chains[chain].id;
        if (answered === null || answered === expected) return null;
        return `${setting}: endpoint ${index + 1} answers chain id ${answered}, not ${chains[chain].label}'s ${expected} (a URL of another chain?)`;
      }),
    ),
  );
  return answers.filter((problem): problem is string => problem !== null);
}

async function chainIdOf(url: string, doFetch: typeof fetch, timeoutMs: number): Promise<number> {
  const response = await doFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as { result?: unknown };
  if (typeof body.result !== "string" || !/^0x[0-9a-fA-F]+$/.test(body.result)) {
    throw new UpstreamError("no chain id in the answer");
  }
  return Number(BigInt(body.result));
}
