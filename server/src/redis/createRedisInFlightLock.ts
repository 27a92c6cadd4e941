import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { InFlightLock } from "../paymentRecords/inFlightLock";
import { redisDown } from "./redisDown";

// Both act only if the key still holds our token: a lock that expired and was taken by another
// replica is not ours to extend or free.
const releaseScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;
const renewScript = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`;

/**
 * The InFlightLock shared by every replica: SET key token NX PX ttl, renewed and released by
 * compare-and-set scripts. A command that fails (Redis down) rejects: the caller fails closed.
 * @example const lock = createRedisInFlightLock(redis); if (await lock.tryAcquire(key, 6_000)) { ... }
 */
export function createRedisInFlightLock(redis: Redis, prefix = "presend:inflight:"): InFlightLock {
  // The tokens this process holds, so renew() and release() touch only its own locks.
  const held = new Map<string, string>();
  const down = redisDown(redis);
  return {
    async tryAcquire(key, ttlMs) {
      // Disconnected: say so now rather than queue the command for its timeout.
      if (down()) throw new Error(`redis is ${redis.status}`);
      const token = randomUUID();
      const taken = await redis.set(prefix + key, token, "PX", ttlMs, "NX");
      if (taken !== "OK") return false;
      held.set(key, token);
      return true;
    },
    async renew(key, ttlMs) {
      const token = held.get(key);
      if (token === undefined) return false;
      return (await redis.eval(renewScript, 1, prefix + key, token, String(ttlMs))) === 1;
    },
    async release(key) {
      const token = held.get(key);
      if (token === undefined) return;
      held.delete(key);
      await redis.eval(releaseScript, 1, prefix + key, token);
    },
  };
}
