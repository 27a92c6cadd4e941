import { createPublicClient } from "viem";
import { keyHiddenHttpTransport } from "./keyHiddenHttpTransport";

/**
 * A viem client for the payment chain's reads: each answer capped at 1 MB and a provider's key
 * kept out of its errors (keyHiddenHttpTransport), each call bounded in time and never retried
 * by viem (the callers decide what a failure means), and the head read afresh every time. viem
 * keeps the head 4 s by default, and a search right after a claim or a settlement must reach the
 * block that holds it, not stop at an older head.
 * @example const client = createBoundedRpcClient(rpcUrl, { timeoutMs: 3_000 });
 */
export function createBoundedRpcClient(rpcUrl: string, options: { timeoutMs?: number } = {}) {
  return createPublicClient({
    cacheTime: 0,
    transport: keyHiddenHttpTransport(rpcUrl, {
      timeoutMs: options.timeoutMs ?? 3_000,
      retryCount: 0,
    }),
  });
}
