import { type ChainHistory, ChainHistorySchema } from "@presend/shared/api/history";
import type { ChainName } from "@presend/shared/chains/chains";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ChainReader } from "../chain/createChainReader";
import type { SharedFactsCache } from "../chain/sharedFactsCache";
import type { Config } from "../config/loadConfig";
import { ConfigError } from "../config/loadConfig";
import type { Engine } from "../engine/createEngine";
import type { App } from "../http/appEnv";
import { createLogger } from "../observability/createLogger";
import { createMetrics, type Metrics } from "../observability/createMetrics";
import { observeRequests } from "../observability/observeRequests";
import { type Readiness, registerOpsRoutes } from "../observability/registerOpsRoutes";
import { reportErrors } from "../observability/reportErrors";
import type { InFlightLock } from "../paymentRecords/inFlightLock";
import { openPostgresPaymentRecords } from "../paymentRecords/openPostgresPaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import type { SignInState } from "../payments/siwx/createSignInState";
import { rateLimits } from "../rateLimit/rateLimits";
import { createRedisFactsCache } from "../redis/createRedisFactsCache";
import { createRedisInFlightLock } from "../redis/createRedisInFlightLock";
import { createRedisSignInState } from "../redis/createRedisSignInState";
import { openRedis } from "../redis/openRedis";
import { instrumentRpcFetch } from "./instrumentRpcFetch";

export type Operations = {
  logger: Logger;
  metrics: Metrics;
  redis: Redis | undefined;
  /** PostgreSQL records when DATABASE_URL is set (otherwise the caller's SQLite default). */
  records: PaymentRecordStore | undefined;
  /** The Redis lock when REDIS_URL is set (otherwise the caller's in-memory default). */
  lock: InFlightLock | undefined;
  sharedCache: SharedFactsCache | undefined;
  /** Sign-In-With-X state shared by the replicas when REDIS_URL is set (otherwise in memory). */
  signIn: SignInState | undefined;
  /** The history reader's shared cache (histories, keyed by recipient, sender and chain). */
  sharedHistoryCache: SharedFactsCache<ChainHistory> | undefined;
  rpcFetch: (rpcUrls: Record<ChainName, readonly string[]>) => typeof fetch;
  /** Counts verdict levels of the reports the engine answers. */
  countVerdicts: (engine: Engine) => Engine;
  /** Exposes the reader's cache counters on /metrics. */
  watchReader: (reader: ChainReader) => void;
  /** Registers, ahead of every route: request id + logs + metrics, /livez /readyz /metrics, rate limits. */
  beforeRoutes: (
    readiness: () => Promise<Readiness>,
    report?: () => Record<string, unknown>,
  ) => (app: App) => void;
  /** From SIGTERM on, /readyz answers 503 so the proxy stops sending traffic. */
  startDraining: () => void;
  draining: () => boolean;
  close: () => Promise<void>;
};

/**
 * What running as a fleet adds around the API, from config: logger, metrics, and the shared parts
 * (PostgreSQL records, Redis cache, locks and rate-limit counters) when their URLs are set. With
 * neither set, everything stays in the process as in the embedded default.
 * @example const ops = await composeOperations(config);
 */
export async function composeOperations(config: Config): Promise<Operations> {
  const logger = createLogger({ level: config.logLevel, name: "presend-api" });
  const metrics = createMetrics();
  const redis = config.redisUrl
    ? openRedis(config.redisUrl, reportErrors(logger, "redis"))
    : undefined;
  let records: PaymentRecordStore | undefined;
  try {
    records = config.databaseUrl ? await openPostgresPaymentRecords(config.databaseUrl) : undefined;
  } catch (error) {
    redis?.disconnect();
    throw new ConfigError(
      `DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    );
  }
  let draining = false;
  return {
    logger,
    metrics,
    redis,
    records,
    lock: redis ? createRedisInFlightLock(redis) : undefined,
    signIn: redis ? createRedisSignInState(redis) : undefined,
    sharedCache: redis
      ? createRedisFactsCache(redis, {
          leaseMs: config.rpcTimeoutMs + 1_000,
          onError: reportErrors(logger, "shared facts cache"),
        })
      : undefined,
    sharedHistoryCache: redis
      ? createRedisFactsCache(redis, {
          prefix: "presend:history:",
          schema: ChainHistorySchema,
          leaseMs: config.rpcTimeoutMs + 1_000,
          onError: reportErrors(logger, "shared history cache"),
        })
      : undefined,
    rpcFetch: (rpcUrls) => instrumentRpcFetch(rpcUrls, metrics),
    countVerdicts: (engine) => ({
      ...engine,
      check: async (input) => {
        const result = await engine.check(input);
        if (result.type === "report") {
          metrics.verdicts.inc({ route: "/check", level: result.report.verdict.level });
        }
        return result;
      },
      deep: async (input) => {
        const result = await engine.deep(input);
        if (result.type === "report") {
          metrics.verdicts.inc({ route: "/deep", level: result.report.verdict.level });
        }
        return result;
      },
    }),
    watchReader: (reader) =>
      metrics.readCacheFrom(() => {
        const stats = reader.stats();
        return { hit: stats.cacheHits, coalesced: stats.coalesced, miss: stats.upstreamRequests };
      }),
    beforeRoutes: (readiness, report) => (app) => {
      app.use("*", observeRequests({ logger, metrics }));
      registerOpsRoutes(app, {
        metrics,
        readiness: async () => {
          if (draining) return { ready: false, reason: "shutting down" };
          if (redis && (await redis.ping().catch(() => null)) !== "PONG") {
            return { ready: false, reason: "the shared cache (Redis) does not answer" };
          }
          return readiness();
        },
        ...(report && { report }),
      });
      if (config.rateLimit) {
        app.use(
          "*",
          rateLimits({
            settings: {
              freeLimit: config.rateLimit.free,
              challengeLimit: config.rateLimit.challenges,
              windowMs: config.rateLimit.windowMs,
              trustProxy: config.trustProxy,
            },
            ...(redis && { redis }),
            metrics,
            onStoreError: reportErrors(logger, "rate-limit store"),
          }),
        );
      }
    },
    startDraining: () => {
      draining = true;
    },
    draining: () => draining,
    // The records store is closed by whoever uses it (composeServer), once.
    async close() {
      redis?.disconnect();
    },
  };
}
