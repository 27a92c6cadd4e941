import { type ChainFacts, ChainFactsSchema } from "@presend/shared/api/report";
import type { Redis } from "ioredis";
import type { z } from "zod";
import type { SharedFactsCache } from "../chain/sharedFactsCache";
import { redisDown } from "./redisDown";

export type RedisFactsCacheOptions<T = ChainFacts> = {
  prefix?: string;
  /** What an entry must be to be served (chain facts by default); anything else is a miss. */
  schema?: z.ZodType<T>;
  /**
   * How long the replica that reads upstream holds the "reading" mark, and how long the others
   * wait for its result before reading themselves (at least one RPC timeout).
   */
  leaseMs?: number;
  /** How often a waiting replica looks for the result. */
  pollMs?: number;
  onError?: (error: unknown) => void;
};

/**
 * The chain facts cache (or, given a schema, another reader's) in Redis, shared by every replica, with coalescing across them: on a miss
 * one replica takes a short lease (SET NX PX) and reads upstream; the others poll for its result.
 * Redis being unreachable never fails a check: the read goes upstream as without a cache.
 * @example createChainReader({ rpcUrls, sharedCache: createRedisFactsCache(redis) })
 */
export function createRedisFactsCache<T = ChainFacts>(
  redis: Redis,
  options: RedisFactsCacheOptions<T> = {},
): SharedFactsCache<T> {
  const prefix = options.prefix ?? "presend:facts:";
  const schema = options.schema ?? (ChainFactsSchema as unknown as z.ZodType<T>);
  const leaseMs = options.leaseMs ?? 5_000;
  const pollMs = options.pollMs ?? 20;
  const onError = options.onError ?? (() => {});

  const lookup = async (key: string): Promise<T | undefined> => {
    const text = await redis.get(prefix + key);
    if (text === null) return undefined;
    // Whatever is in Redis is outside input like any other: a bad entry is a miss.
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  };

  const down = redisDown(redis);
  return {
    async through(key, read, ttlFor) {
      // A lost connection: straight upstream, not after a command timeout.
      if (down()) return { facts: await read(), fromCache: false };
      let leased = false;
      try {
        const cached = await lookup(key);
        if (cached) return { facts: cached, fromCache: true };
        leased = (await redis.set(`${prefix}${key}:reading`, "1", "PX", leaseMs, "NX")) === "OK";
        if (!leased) {
          const deadline = Date.now() + leaseMs;
          while (Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, pollMs));
            const landed = await lookup(key);
            if (landed) return { facts: landed, fromCache: true };
            if ((await redis.exists(`${prefix}${key}:reading`)) === 0) {
              // The reader stored its result and let go between our lookup and this check, or it
              // finished without caching (a failure is not kept): look once more, else read.
              const late = await lookup(key);
              if (late) return { facts: late, fromCache: true };
              break;
            }
          }
        }
      } catch (error) {
        onError(error);
      }
      const facts = await read();
      try {
        const ttl = ttlFor(facts);
        if (ttl > 0) await redis.set(prefix + key, JSON.stringify(facts), "PX", ttl);
        if (leased) await redis.del(`${prefix}${key}:reading`);
      } catch (error) {
        onError(error);
      }
      return { facts, fromCache: false };
    },
  };
}
