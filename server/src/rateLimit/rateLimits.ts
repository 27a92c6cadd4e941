import { getConnInfo } from "@hono/node-server/conninfo";
import type { ErrorBody } from "@presend/shared/api/errors";
import type { Context, MiddlewareHandler, Next } from "hono";
import { MemoryStore, RedisStore, type Store } from "hono-rate-limiter";
import type { Redis } from "ioredis";
import { corsResponseHeaders } from "../http/apiCors";
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
 * Per-client rate limits, counted in hono-rate-limiter's stores (in memory, or in Redis shared by
 * the replicas): one budget for the free routes, one for unpaid challenges on the paid routes. A
 * request that carries a payment (an authorization, a deposit or a voucher) is not counted on its
 * way in: a settled one takes its challenge off the count, and a refused one (a 402 after a
 * payment was offered, whatever the reason) adds one and counts as a refused payment. A client
 * with as many refused payments in the window as the challenge budget gets the 429 for every
 * payment-carrying request before it is verified or runs the engine, so forged payments cannot
 * buy chain reads without limit; a correct payment is never counted, so a client that pays
 * correctly is never limited by it. A payment header that carries no authorization is an unpaid
 * challenge. Every counted answer carries the draft-7 `RateLimit-Policy` and `RateLimit`
 * headers; over the limit: 429, `{error:{code:"rate_limited"}}` and Retry-After.
 * The stores are called from this one layer rather than through the library's middleware (an
 * async layer with several awaits per request): with the in-memory store a request is counted
 * without a promise, which keeps the free routes' throughput (npm run bench).
 * @example app.use("*", rateLimits({ settings, redis }));
 */
export function rateLimits(deps: RateLimitDeps): MiddlewareHandler {
  const { settings } = deps;
  const counters = {
    free: withMemoryFallback(store("free", deps), deps.redis, deps.onStoreError),
    challenge: withMemoryFallback(store("challenge", deps), deps.redis, deps.onStoreError),
    refused: withMemoryFallback(store("refused", deps), deps.redis, deps.onStoreError),
  };
  for (const counter of Object.values(counters)) counter.init({ windowMs: settings.windowMs });
  const limits = { free: settings.freeLimit, challenge: settings.challengeLimit };
  const messages = {
    free: "Too many requests from this client; try again after Retry-After seconds.",
    challenge:
      "Too many unpaid requests from this client; try again after Retry-After seconds. A correct payment is not limited.",
  };

  const decide = (
    c: Context,
    next: Next,
    name: LimitName,
    count: Count,
  ): Promise<Response | undefined> => {
    const info: RateLimitInfo = {
      limit: limits[name],
      remaining: Math.max(limits[name] - count.totalHits, 0),
      resetTime: count.resetTime,
    };
    const refused = count.totalHits > limits[name];
    rateLimitHeaders(c, info, settings.windowMs, refused);
    if (!refused) return next() as Promise<undefined>;
    deps.metrics?.rateLimited.inc({ limit: name });
    const body: ErrorBody = { error: { code: "rate_limited", message: messages[name] } };
    return Promise.resolve(refusal(c, body));
  };
  const limited = (c: Context, next: Next, name: LimitName): Promise<Response | undefined> => {
    const count = counters[name].increment(clientKey(c, settings.trustProxy));
    return count instanceof Promise
      ? count.then((counted) => decide(c, next, name, counted))
      : decide(c, next, name, count);
  };

  return function rateLimits(c, next) {
    const path = c.req.path;
    if (opsPaths.has(path) || c.req.method === "OPTIONS") return next();
    if (!paidPaths.has(path)) return limited(c, next, "free");
    // A header that carries no authorization pays for nothing: it is one more challenge. The
    // reading is kept on the context, so the paid route's intake does not decode it again.
    const payment = paymentHeaderOf(c)?.payment;
    if (payment === undefined || payment === null || payment === "too_large") {
      return limited(c, next, "challenge");
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
    const key = clientKey(c, settings.trustProxy);
    const refused = await counters.refused.get(key);
    const limit = settings.challengeLimit;
    if (refused !== undefined && refused.totalHits >= limit) {
      const info: RateLimitInfo = { limit, remaining: 0, resetTime: refused.resetTime };
      rateLimitHeaders(c, info, settings.windowMs, true);
      deps.metrics?.rateLimited.inc({ limit: "refused_payment" });
      const body: ErrorBody = {
        error: {
          code: "rate_limited",
          message:
            "Too many refused payments from this client; try again after Retry-After seconds. Correct payments are never counted.",
        },
      };
      return refusal(c, body);
    }
    await next();
    // A paid check gives its challenge back: an honest client (one challenge, one payment per
    // check) never runs out, one that only collects challenges does. A refused payment counts
    // as a challenge and as a refused payment, so forged payments run out both budgets.
    if (c.res.status === 200) await counters.challenge.decrement(key);
    else if (c.res.status === 402) {
      await Promise.all([counters.challenge.increment(key), counters.refused.increment(key)]);
    }
    return undefined;
  }
}

type LimitName = "free" | "challenge";

/**
 * The 429, with the CORS headers: this layer answers before the API's CORS middleware runs, and a
 * browser hides an answer without them from the page, which then sees a network error instead of
 * when to come back.
 */
function refusal(c: Context, body: ErrorBody): Response {
  for (const [name, value] of Object.entries(corsResponseHeaders))
    setResponseHeader(c, name, value);
  return c.json(body, 429);
}

/**
 * The draft-7 headers (`RateLimit-Policy`, `RateLimit`; `Retry-After` on a 429), the ones
 * hono-rate-limiter's middleware writes, set the way that keeps node-server's fast path.
 */
function rateLimitHeaders(
  c: Context,
  info: RateLimitInfo,
  windowMs: number,
  refused: boolean,
): void {
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

/** A client's count in the current window, as the stores answer it. */
type Count = { totalHits: number; resetTime?: Date };

/** A store whose in-memory answers come back without a promise. */
type Counter = {
  init: (options: { windowMs: number }) => void;
  increment: (key: string) => Count | Promise<Count>;
  /** The count in its window, or undefined (a count held past its window is no count). */
  get: (key: string) => Promise<Count | undefined>;
  decrement: (key: string) => void | Promise<void>;
};

/**
 * An unreachable Redis must neither take the routes down nor lift the limits: while it fails,
 * this replica counts alone in memory (a client may get one budget per replica meanwhile).
 */
function withMemoryFallback(
  inner: Store,
  redis: Redis | undefined,
  onError?: (error: unknown) => void,
): Counter {
  const fallback = new MemoryStore();
  // The memory store clears expired counts only now and then: one past its window is no count.
  const current = (count: Count | undefined) =>
    count?.resetTime && count.resetTime.getTime() <= Date.now() ? undefined : count;
  // Without Redis the memory store is the store: counted at once, without a promise.
  if (!redis) {
    return {
      init: (options) => fallback.init(options as never),
      increment: (key) => fallback.increment(key),
      get: async (key) => current(await fallback.get(key)),
      decrement: (key) => fallback.decrement(key),
    };
  }
  // Disconnected: count in memory now rather than queue the command for its timeout.
  const down = redisDown(redis);
  return {
    init: (options) => {
      inner.init?.(options as never);
      fallback.init(options as never);
    },
    get: async (key) => {
      if (down()) return current(await fallback.get(key));
      try {
        return current(await inner.get?.(key));
      } catch (error) {
        onError?.(error);
        return current(await fallback.get(key));
      }
    },
    increment: (key) => {
      if (down()) return fallback.increment(key);
      return (async () => {
        try {
          return await inner.increment(key);
        } catch (error) {
          onError?.(error);
          return fallback.increment(key);
        }
      })();
    },
    decrement: async (key) => {
      if (down()) return fallback.decrement(key);
      try {
        await inner.decrement(key);
      } catch (error) {
        onError?.(error);
        fallback.decrement(key);
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
