import autocannon from "autocannon";
import { Hono } from "hono";
import { createApp } from "../src/app";
import type { App } from "../src/http/appEnv";
import { listen } from "../src/http/listen";
import { createLogger, logDestination } from "../src/observability/createLogger";
import { createMetrics } from "../src/observability/createMetrics";
import { observeRequests } from "../src/observability/observeRequests";
import { registerOpsRoutes } from "../src/observability/registerOpsRoutes";
import { rateLimits } from "../src/rateLimit/rateLimits";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/** Requests answered per second of wall time, and per CPU-second of this process. */
export type Throughput = { perSecond: number; perCpuSecond: number };

async function measure(url: string, durationSeconds: number): Promise<Throughput> {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({ url, connections: 10, duration: durationSeconds });
  const cpu = process.cpuUsage(cpuBefore);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return {
    perSecond: result.requests.average,
    perCpuSecond: result.requests.total / ((cpu.user + cpu.system) / 1e6),
  };
}

/**
 * The middleware a mainnet server runs ahead of every route (composeOperations' beforeRoutes
 * with LOG_LEVEL=info and RATE_LIMITS=on, in-process stores): request id, one log line and the
 * request metrics, then the rate limits. Log lines go to /dev/null through the destination they
 * take to stdout in production (createLogger's), so their cost is counted without filling the
 * terminal.
 */
const operationsMiddleware =
  (parts: { observe: boolean; rateLimit: boolean }) =>
  (app: App): void => {
    const metrics = createMetrics();
    if (parts.observe) {
      const logger = createLogger(
        { level: "info", name: "presend-api" },
        logDestination("/dev/null"),
      );
      app.use("*", observeRequests({ logger, metrics }));
    }
    registerOpsRoutes(app, { metrics, readiness: async () => ({ ready: true }) });
    if (parts.rateLimit) {
      // A limit no run reaches: every answer is a 200 that went through the limiter's counting.
      const settings = { freeLimit: 1e9, challengeLimit: 1e9, windowMs: 60_000, trustProxy: false };
      app.use("*", rateLimits({ settings, metrics }));
    }
  };

const variants = {
  app: { observe: false, rateLimit: false },
  observe: { observe: true, rateLimit: false },
  rateLimit: { observe: false, rateLimit: true },
  production: { observe: true, rateLimit: true },
} as const;
type Variant = keyof typeof variants;

/**
 * `/validate` throughput as a ratio to a bare Hono route answering the same bytes from a
 * constant, served by the same node-server in the same process: the app alone, with each
 * operations middleware, and with all of them as in production. Rounds alternate so drift on a
 * noisy machine hits every variant alike; requests per CPU-second (autocannon included) is the
 * figure that other processes on a shared machine do not move.
 */
export async function benchValidateThroughput(options: { rounds: number; seconds: number }) {
  const app = (variant: Variant) =>
    createApp({
      publicUrl: "http://127.0.0.1",
      probe: async () => [],
      beforeRoutes: [operationsMiddleware(variants[variant])],
    });
  // The baseline answers the very same JSON bytes from a constant, so the ratio measures what the
  // app adds (routing, middleware, validation, the checksum) and not the size of the answer.
  const same = await (await app("app").request(`/validate?address=${address}`)).json();
  const bare = new Hono();
  bare.get("/bare", (c) => c.json(same));
  const names = Object.keys(variants) as Variant[];
  const servers = await Promise.all([
    listen(bare, { port: 0 }),
    ...names.map((name) => listen(app(name), { port: 0 })),
  ]);
  try {
    const [bareServer, ...appServers] = servers;
    const urls: Record<"bare" | Variant, string> = {
      bare: `${bareServer?.url}/bare`,
      ...(Object.fromEntries(
        names.map((name, index) => [name, `${appServers[index]?.url}/validate?address=${address}`]),
      ) as Record<Variant, string>),
    };
    const runs = Object.fromEntries(
      Object.keys(urls).map((name) => [name, [] as Throughput[]]),
    ) as Record<"bare" | Variant, Throughput[]>;
    // Warm every server up so JIT state does not favour the ones measured later.
    for (const url of Object.values(urls)) await measure(url, 1);
    for (let round = 0; round < options.rounds; round++) {
      for (const [name, url] of Object.entries(urls) as ["bare" | Variant, string][]) {
        runs[name].push(await measure(url, options.seconds));
      }
    }
    const mean = (values: Throughput[]): Throughput => ({
      perSecond: values.reduce((sum, value) => sum + value.perSecond, 0) / values.length,
      perCpuSecond: values.reduce((sum, value) => sum + value.perCpuSecond, 0) / values.length,
    });
    const bareMean = mean(runs.bare);
    const vsBare = (name: Variant) => {
      const figures = mean(runs[name]);
      return {
        ...figures,
        ratio: figures.perSecond / bareMean.perSecond,
        cpuRatio: figures.perCpuSecond / bareMean.perCpuSecond,
      };
    };
    return {
      bare: bareMean,
      app: vsBare("app"),
      observe: vsBare("observe"),
      rateLimit: vsBare("rateLimit"),
      production: vsBare("production"),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
