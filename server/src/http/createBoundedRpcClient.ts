import { createPublicClient, http } from "viem";
import { boundedFetch } from "./boundedFetch";
import { shownRpcUrl } from "./shownRpcUrl";

/**
 * A viem client for the payment chain's reads: each answer capped at 1 MB (boundedFetch), each
 * call bounded in time and never retried by viem (the callers decide what a failure means), and
 * the head read afresh every time. viem keeps the head 4 s by default, and a search right after
 * a claim or a settlement must reach the block that holds it, not stop at an older head.
 * viem names its URL in every error it throws ("URL: ..."), and those errors reach the logs: it is
 * given the URL's origin only, and the requests go to the real one, so a provider's key in the
 * path or query never appears in an error.
 * @example const client = createBoundedRpcClient(rpcUrl, { timeoutMs: 3_000 });
 */
export function createBoundedRpcClient(rpcUrl: string, options: { timeoutMs?: number } = {}) {
  const fetchBounded = boundedFetch();
  const { shown, target } = splitRpcUrl(rpcUrl);
  return createPublicClient({
    cacheTime: 0,
    transport: http(shown, {
      fetchFn: (_shown, init) => fetchBounded(target, init),
      timeout: options.timeoutMs ?? 3_000,
      retryCount: 0,
    }),
  });
}

/**
 * What viem is given (the origin, with the user info when there is one: viem turns it into an
 * Authorization header and drops it from its errors) and where requests really go (the whole URL
 * without the user info, which a fetch refuses).
 */
function splitRpcUrl(rpcUrl: string): { shown: string; target: string } {
  const target = new URL(rpcUrl);
  const shown = new URL(shownRpcUrl(rpcUrl));
  shown.username = target.username;
  shown.password = target.password;
  target.username = "";
  target.password = "";
  return { shown: shown.toString(), target: target.toString() };
}
