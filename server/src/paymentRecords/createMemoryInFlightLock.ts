import type { InFlightLock } from "./inFlightLock";

/**
 * The in-process InFlightLock: a map from key to expiry time.
 * @example const lock = createMemoryInFlightLock(); if (await lock.tryAcquire(key, 6_000)) { ... }
 */
export function createMemoryInFlightLock(clock: () => number = Date.now): InFlightLock {
  const held = new Map<string, number>();
  return {
    async tryAcquire(key, ttlMs) {
      const now = clock();
      const expiry = held.get(key);
      if (expiry !== undefined && expiry > now) return false;
      held.set(key, now + ttlMs);
      return true;
    },
    async renew(key, ttlMs) {
      const now = clock();
      const expiry = held.get(key);
      if (expiry === undefined || expiry <= now) return false;
      held.set(key, now + ttlMs);
      return true;
    },
    async release(key) {
      held.delete(key);
    },
  };
}
