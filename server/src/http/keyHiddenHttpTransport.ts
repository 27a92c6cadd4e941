import { type HttpTransport, http } from "viem";
import { boundedFetch } from "./boundedFetch";
import { shownRpcUrl } from "./shownRpcUrl";

export type KeyHiddenHttpOptions = {
  /** Per JSON-RPC call, in milliseconds. */
  timeoutMs: number;
  /** How many times viem retries a failed call. */
  retryCount: number;
};

/**
 * viem's http transport for an RPC URL that may carry a provider's key, each answer capped at
 * 1 MB (boundedFetch). viem names its URL in every error it throws ("URL: ..."), and those errors
 * reach the logs: it is given the URL's origin only, with the user info when there is one (viem
 * turns that into an Authorization header and drops it from its errors), and the requests go to
 * the whole URL, so a key in the path or query never appears in an error.
 * @example createPublicClient({ transport: keyHiddenHttpTransport(rpcUrl, { timeoutMs: 3_000, retryCount: 0 }) })
 */
export function keyHiddenHttpTransport(
  rpcUrl: string,
  options: KeyHiddenHttpOptions,
): HttpTransport {
  const fetchBounded = boundedFetch();
  const { shown, target } = splitRpcUrl(rpcUrl);
  return http(shown, {
    fetchFn: (_shown, init) => fetchBounded(target, init),
    timeout: options.timeoutMs,
    retryCount: options.retryCount,
  });
}

/**
 * What viem is given (the origin, with the user info) and where requests really go (the whole URL
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
