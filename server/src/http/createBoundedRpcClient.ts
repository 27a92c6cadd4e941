import { createPublicClient, http } from "viem";
import { boundedFetch } from "./boundedFetch";

/**
 * A viem client for the payment chain's reads: each answer capped at 1 MB (boundedFetch), each
 * call bounded in time and never retried by viem (the callers decide what a failure means), and
 * the head read afresh every time. viem keeps the head 4 s by default, and a search right after
 * a claim or a settlement must reach the block that holds it, not stop at an older head.
 * @example const client = createBoundedRpcClient(rpcUrl, { timeoutMs: 3_000 });
 */
export function createBoundedRpcClient(rpcUrl: string, options: { timeoutMs?: number } = {}) {
  return createPublicClient({
    cacheTime: 0,
    transport: http(rpcUrl, {
      fetchFn: boundedFetch(),
      timeout: options.timeoutMs ?? 3_000,
      retryCount: 0,
    }),
  });
}
