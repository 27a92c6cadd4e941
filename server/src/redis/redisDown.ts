import type { Redis } from "ioredis";

const watched = new WeakMap<Redis, { lost: boolean }>();

/**
 * Whether this connection was lost and is not back yet (closed or reconnecting after having been
 * up), so a caller can fall back at once instead of queueing a command for its timeout. A
 * connection still making its first connect is not down: its commands queue as usual.
 * @example if (redisDown(redis)()) return fallback.increment(key);
 */
export function redisDown(redis: Redis): () => boolean {
  let state = watched.get(redis);
  if (state === undefined) {
    const created = { lost: false };
    redis.on("ready", () => {
      created.lost = false;
    });
    redis.on("close", () => {
      created.lost = true;
    });
    watched.set(redis, created);
    state = created;
  }
  const current = state;
  return () => current.lost || redis.status === "end";
}
