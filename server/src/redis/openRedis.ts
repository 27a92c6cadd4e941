import { Redis } from "ioredis";

/**
 * One Redis connection for the process (REDIS_URL). Commands queue while it reconnects and fail
 * within a second (commandTimeout) instead of holding a request: a lock then fails closed and a
 * rate limit falls back to memory at once while Redis is down.
 * @example const redis = openRedis(config.redisUrl); await redis.ping();
 */
export function openRedis(url: string, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    commandTimeout: 1_000,
    enableAutoPipelining: true,
  });
  // ioredis reports connection errors as events; unheard, they would crash the process.
  redis.on("error", onError ?? (() => {}));
  return redis;
}
