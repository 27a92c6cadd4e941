import type { InFlightLock } from "./inFlightLock";

/** A lock held for as long as its holder lives: renewed in the background until released. */
export type Lease = {
  /** Stops renewing and frees the lock. Never throws: a lock that cannot be freed expires. */
  release(): Promise<void>;
};

/**
 * Takes `key` as a lease of `ttlMs`, renewed every third of it while the holder runs, so a holder
 * that dies (a killed replica) frees it within one ttl while a slow one keeps it. null when
 * someone else holds it; rejects when the lock store cannot be asked (the caller fails closed).
 * @example const lease = await holdLease(lock, "payment-id:abc", 6_000); try { ... } finally { await lease?.release(); }
 */
export async function holdLease(
  lock: InFlightLock,
  key: string,
  ttlMs: number,
  onError: (error: unknown) => void = () => {},
): Promise<Lease | null> {
  if (!(await lock.tryAcquire(key, ttlMs))) return null;
  const timer = setInterval(() => {
    lock.renew(key, ttlMs).catch(onError);
  }, ttlMs / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      try {
        await lock.release(key);
      } catch (error) {
        onError(error);
      }
    },
  };
}
