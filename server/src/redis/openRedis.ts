import { Redis } from "ioredis";

/**
 * One Redis connection for the process (REDIS_URL). Commands queue while it reconnects and fail
 * after a bounded wait instead of hanging a request forever.
 * @example const redis = openRedis(config.redisUrl); await redis.ping();
 */
export function openRedis(url: string, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    connectTimeout: 5_000,
    enableAutoPipelining: true,
  });
  // ioredis reports connection errors as events; unheard, they would crash the process.
  redis.on("error", onError ?? (() => {}));
  return redis;
}
