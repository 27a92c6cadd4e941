import { getConnInfo } from "@hono/node-server/conninfo";
import type { ErrorBody } from "@presend/shared/api/errors";
import type { Context, MiddlewareHandler, Next } from "hono";
import { MemoryStore, RedisStore, rateLimiter, type Store } from "hono-rate-limiter";
import type { Redis } from "ioredis";
import { requestHeader } from "../http/requestHeader";
import { setResponseHeader } from "../http/responseHeader";
import type { Metrics } from "../observability/createMetrics";
import { paymentHeaderOf } from "../payments/intake/paymentHeaderOf";
import { redisDown } from "../redis/redisDown";

export type RateLimitSettings = {
  /** Requests per client per window on the free routes (validate, data, receipts, discovery). */
  freeLimit: number;
  /** Unpaid requests per client per window on the paid routes (each one answers a 402 challenge). */
  challengeLimit: number;
  windowMs: number;
  /** Behind a proxy: the client is the last X-Forwarded-For entry (the address the proxy saw). */
  trustProxy: boolean;
};

export type RateLimitDeps = {
  settings: RateLimitSettings;
  /** Shared counters across replicas; in-memory (per process) without it. */
  redis?: Redis;
  metrics?: Metrics;
  onStoreError?: (error: unknown) => void;
};

// Never limited: liveness, readiness and metrics belong to the operator's probes.
const opsPaths = new Set(["/livez", "/readyz", "/metrics"]);
const paidPaths = new Set(["/check", "/deep"]);

/**
 * Per-client rate limits (hono-rate-limiter): one budget for the free routes, one for unpaid
 * challenges on the paid routes. A request that carries a payment (an authorization, a deposit or
 * a voucher) is not counted on its way in: a settled one takes its challenge off the count, and a
 * refused one (a 402 after a payment was offered, whatever the reason) adds one and counts as a
 * refused payment. A client with as many refused payments in the window as the challenge budget
 * gets the 429 for every payment-carrying request before it is verified or runs the engine, so
 * forged payments cannot buy chain reads without limit; a correct payment is never counted, so a
 * client that pays correctly is never limited by it. A payment header that carries no
 * authorization is an unpaid challenge. Over a limit: 429, `{error:{code:"rate_limited"}}` and
 * Retry-After. With Redis, every replica counts in the same keys.
 * @example app.use("*", rateLimits({ settings, redis }));
 */
export function rateLimits(deps: RateLimitDeps): MiddlewareHandler {
  const { settings } = deps;
  const keyGenerator = (c: Context) => clientKey(c, settings.trustProxy);
  const stores = {
    free: withMemoryFallback(store("free", deps), deps.redis, deps.onStoreError),
    challenge: withMemoryFallback(store("challenge", deps), deps.redis, deps.onStoreError),
    refused: withMemoryFallback(store("refused", deps), deps.redis, deps.onStoreError),
  };
  stores.refused.init?.({ windowMs: settings.windowMs } as never);
  const limiter = (name: "free" | "challenge", limit: number) => {
    const limited = rateLimiter({
      windowMs: settings.windowMs,
      limit,
      // The draft-7 headers are written below (rateLimitHeaders), on node-server's fast path.
      standardHeaders: false,
      keyGenerator,
      store: stores[name],
      handler: (c) => {
        rateLimitHeaders(c, settings.windowMs, true);
        deps.metrics?.rateLimited.inc({ limit: name });
        const body: ErrorBody = {
          error: {
            code: "rate_limited",
            message:
              name === "free"
                ? "Too many requests from this client; try again after Retry-After seconds."
                : "Too many unpaid requests from this client; try again after Retry-After seconds. A correct payment is not limited.",
          },
        };
        return c.json(body, 429);
      },
    });
    return ((c, next) =>
      limited(c, () => {
        rateLimitHeaders(c, settings.windowMs, false);
        return next();
      })) as MiddlewareHandler;
  };
  const free = limiter("free", settings.freeLimit);
  const challenge = limiter("challenge", settings.challengeLimit);
  return (c, next) => {
    const path = c.req.path;
    if (opsPaths.has(path) || c.req.method === "OPTIONS") return next();
    if (!paidPaths.has(path)) return free(c, next);
    // A header that carries no authorization pays for nothing: it is one more challenge. The
    // reading is kept on the context, so the paid route's intake does not decode it again.
    const payment = paymentHeaderOf(c)?.payment;
    if (payment === undefined || payment === null || payment === "too_large") {
      return challenge(c, next);
    }
    return refusedPayments(c, next);
  };

  /**
   * A payment-carrying request: read, not counted, on its way in (a burst of correct payments
   * from one client is never refused); refused with 429 once its client's refused payments fill
   * the challenge budget. A concurrent burst can pass the check before its refusals are counted,
   * so a client gets at most the budget plus the payments it has in flight at once.
   */
  async function refusedPayments(c: Context, next: Next): Promise<Response | undefined> {
    const key = keyGenerator(c);
    const refused = await stores.refused.get(key);
    const limit = settings.challengeLimit;
    if (refused !== undefined && refused.totalHits >= limit) {
      c.set("rateLimit" as never, { limit, remaining: 0, resetTime: refused.resetTime } as never);
      rateLimitHeaders(c, settings.windowMs, true);
      deps.metrics?.rateLimited.inc({ limit: "refused_payment" });
      const body: ErrorBody = {
        error: {
          code: "rate_limited",
          message:
            "Too many refused payments from this client; try again after Retry-After seconds. Correct payments are never counted.",
        },
      };
      return c.json(body, 429);
    }
    await next();
    // A paid check gives its challenge back: an honest client (one challenge, one payment per
    // check) never runs out, one that only collects challenges does. A refused payment counts
    // as a challenge and as a refused payment, so forged payments run out both budgets.
    if (c.res.status === 200) await stores.challenge.decrement(key);
    else if (c.res.status === 402) {
      await Promise.all([stores.challenge.increment(key), stores.refused.increment(key)]);
    }
    return undefined;
  }
}

/**
 * hono-rate-limiter's draft-7 headers (`RateLimit-Policy`, `RateLimit`; `Retry-After` on a 429)
 * from the state it keeps on the context, set the way that keeps node-server's fast path.
 */
function rateLimitHeaders(c: Context, windowMs: number, refused: boolean): void {
  const info = c.get("rateLimit" as never) as RateLimitInfo | undefined;
  if (!info) return;
  const windowSeconds = Math.ceil(windowMs / 1000);
  const resetSeconds = info.resetTime
    ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
    : windowSeconds;
  setResponseHeader(c, "RateLimit-Policy", `${info.limit};w=${windowSeconds}`);
  setResponseHeader(
    c,
    "RateLimit",
    `limit=${info.limit}, remaining=${info.remaining}, reset=${resetSeconds}`,
  );
  if (refused) setResponseHeader(c, "Retry-After", String(resetSeconds));
}

type RateLimitInfo = { limit: number; remaining: number; resetTime?: Date };

function store(name: string, deps: RateLimitDeps): Store {
  if (!deps.redis) return new MemoryStore();
  const redis = deps.redis;
  return new RedisStore({
    prefix: `presend:ratelimit:${name}:`,
    client: {
      scriptLoad: (script) => redis.script("LOAD", script) as Promise<string>,
      evalsha: (sha, keys, args) =>
        redis.evalsha(sha, keys.length, ...keys, ...(args as string[])) as Promise<never>,
      decr: (key) => redis.decr(key),
      del: (key) => redis.del(key),
    },
  });
}

/**
 * An unreachable Redis must neither take the routes down nor lift the limits: while it fails,
 * this replica counts alone in memory (a client may get one budget per replica meanwhile).
 */
function withMemoryFallback(
  inner: Store,
  redis: Redis | undefined,
  onError?: (error: unknown) => void,
): Store & Required<Pick<Store, "get">> {
  const fallback = new MemoryStore();
  // Disconnected: count in memory now rather than queue the command for its timeout.
  const down = redis ? redisDown(redis) : () => false;
  const readCount = async (key: string) => {
    if (down()) return fallback.get(key);
    try {
      return await inner.get?.(key);
    } catch (error) {
      onError?.(error);
      return fallback.get(key);
    }
  };
  return {
    init: (options) => {
      inner.init?.(options);
      fallback.init(options);
    },
    // A count still held past its window (the memory store clears them only now and then) is
    // no count.
    get: async (key) => {
      const count = await readCount(key);
      return count?.resetTime && count.resetTime.getTime() <= Date.now() ? undefined : count;
    },
    increment: async (key) => {
      if (down()) return fallback.increment(key);
      try {
        return await inner.increment(key);
      } catch (error) {
        onError?.(error);
        return fallback.increment(key);
      }
    },
    decrement: async (key) => {
      if (down()) return fallback.decrement(key);
      try {
        await inner.decrement(key);
      } catch (error) {
        onError?.(error);
        await fallback.decrement(key);
      }
    },
    resetKey: async (key) => {
      if (down()) return fallback.resetKey(key);
      try {
        await inner.resetKey(key);
      } catch (error) {
        onError?.(error);
        await fallback.resetKey(key);
      }
    },
  };
}

/** The client's address: the socket's, or behind a trusted proxy the one it appended. */
function clientKey(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = requestHeader(c, "x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request in tests has no socket.
    return "unknown";
  }
}
