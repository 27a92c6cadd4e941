import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { InFlightLock } from "../paymentRecords/inFlightLock";

// Deletes the key only if it still holds our token: a lock that expired and was taken by another
// replica is not ours to free.
const releaseScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

/**
 * The InFlightLock shared by every replica: SET key token NX PX ttl, released by compare-and-delete.
 * @example const lock = createRedisInFlightLock(redis); if (await lock.tryAcquire(key, 120_000)) { ... }
 */
export function createRedisInFlightLock(redis: Redis, prefix = "presend:inflight:"): InFlightLock {
  // The tokens this process holds, so release() frees only its own locks.
  const held = new Map<string, string>();
  return {
    async tryAcquire(key, ttlMs) {
      const token = randomUUID();
      const taken = await redis.set(prefix + key, token, "PX", ttlMs, "NX");
      if (taken !== "OK") return false;
      held.set(key, token);
      return true;
    },
    async release(key) {
      const token = held.get(key);
      if (token === undefined) return;
      held.delete(key);
      await redis.eval(releaseScript, 1, prefix + key, token);
    },
  };
}
