import { createPublicClient } from "viem";
import { keyHiddenFallbackTransport } from "./keyHiddenFallbackTransport";

/**
 * A viem client for the payment chain's reads through every URL given, in order (a call the
 * first does not answer is asked of the next: keyHiddenFallbackTransport): each answer capped at
 * 1 MB and a provider's key kept out of its errors, each call bounded in time at each URL and
 * never retried by viem (the callers decide what a failure means), and the head read afresh
 * every time. viem
 * keeps the head 4 s by default, and a search right after a claim or a settlement must reach the
 * block that holds it, not stop at an older head.
 * @example const client = createBoundedRpcClient(rpcUrls, { timeoutMs: 3_000 });
 */
export function createBoundedRpcClient(
  rpcUrls: readonly string[],
  options: { timeoutMs?: number } = {},
) {
  return createPublicClient({
    cacheTime: 0,
    transport: keyHiddenFallbackTransport(rpcUrls, {
      timeoutMs: options.timeoutMs ?? 3_000,
      retryCount: 0,
    }),
  });
}
