/**
 * A lock per EIP-3009 authorization while its request is being served: the second request with
 * the same (payer, nonce) is answered at once instead of running the engine again. In memory for
 * one process (createMemoryInFlightLock); a shared store (e.g. Redis SET NX PX) implements the
 * same interface for several processes and runs the same contract suite (inFlightLockContract).
 */
export type InFlightLock = {
  /** Takes the lock for `key` unless someone holds it; `ttlMs` frees it if the holder dies. */
  tryAcquire(key: string, ttlMs: number): Promise<boolean>;
  /** Frees the lock (no-op when not held). */
  release(key: string): Promise<void>;
};
