/**
 * A lock per EIP-3009 authorization (and per payment id) while its request is being served: the
 * second request with the same key is answered at once instead of running the engine again.
 * A lock is a lease: it expires `ttlMs` after it was taken or last renewed, so a holder that dies
 * (a killed replica) frees it within one ttl; a live holder renews it (holdLease). In memory for
 * one process (createMemoryInFlightLock); a shared store (Redis SET NX PX) implements the same
 * interface for several processes and runs the same contract suite (inFlightLockContract).
 */
export type InFlightLock = {
  /** Takes the lock for `key` unless someone holds it; it expires after `ttlMs` unless renewed. */
  tryAcquire(key: string, ttlMs: number): Promise<boolean>;
  /** Extends a lock this holder still has by `ttlMs` from now; false when it was lost. */
  renew(key: string, ttlMs: number): Promise<boolean>;
  /** Frees the lock (no-op when not held). */
  release(key: string): Promise<void>;
};
