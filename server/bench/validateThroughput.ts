import autocannon from "autocannon";
import { Hono } from "hono";
import { getAddress } from "viem";
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

/**
 * Addresses that are all different (20,000, walked in order across all connections), so no
 * answer can come from anything kept from an earlier request about the same address.
 */
const distinctAddresses = Array.from({ length: 20_000 }, (_, index) =>
  getAddress(`0x${(BigInt(index + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0")}`),
);

/** Each request the next of `distinctAddresses` (across all connections), else one address. */
async function measure(
  url: string,
  durationSeconds: number,
  eachAddressNew = false,
): Promise<Throughput> {
  let next = 0;
  const path = new URL(url).pathname;
  const requests = eachAddressNew
    ? [
        {
          setupRequest: (request: autocannon.Request) => ({
            ...request,
            path: `${path}?address=${distinctAddresses[next++ % distinctAddresses.length]}`,
          }),
        },
      ]
    : undefined;
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: 10,
    duration: durationSeconds,
    ...(requests && { requests }),
  });
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
  (parts: { observe: boolean; rateLimit: boolean; logLine?: boolean }) =>
  (app: App): void => {
    const metrics = createMetrics();
    if (parts.observe) {
      // At "warn" the request line (an info line) is not written: the log line's own cost shows
      // as the difference from the variant that writes it.
      const logger = createLogger(
        { level: parts.logLine === false ? "warn" : "info", name: "presend-api" },
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
  observeNoLogLine: { observe: true, rateLimit: false, logLine: false },
  observe: { observe: true, rateLimit: false },
  rateLimit: { observe: false, rateLimit: true },
  production: { observe: true, rateLimit: true },
} as const;
type Variant = keyof typeof variants;

/**
 * `/validate` throughput as a ratio to a bare Hono route answering the same bytes from a
 * constant, served by the same node-server in the same process: the app alone, with each
 * operations middleware, and with all of them as in production (and that once more with every
 * request asking about another address, against the same bare route asked the same way). Rounds
 * alternate so drift on a noisy machine hits every variant alike; requests per CPU-second
 * (autocannon included) is the figure that other processes on a shared machine do not move.
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
    type Run = "bare" | Variant | "bareEachNew" | "productionEachNew";
    // The same pair once more with every request asking about another address: the goal's figure
    // (one address, asked again and again) must not rest on a per-address cache.
    const eachNew: Partial<Record<Run, string>> = {
      bareEachNew: urls.bare,
      productionEachNew: urls.production.replace(/\?.*$/, ""),
    };
    const all = { ...urls, ...eachNew } as Record<Run, string>;
    const runs = Object.fromEntries(
      Object.keys(all).map((name) => [name, [] as Throughput[]]),
    ) as Record<Run, Throughput[]>;
    // Warm every server up so JIT state does not favour the ones measured later.
    for (const url of Object.values(urls)) await measure(url, 1);
    for (let round = 0; round < options.rounds; round++) {
      for (const [name, url] of Object.entries(all) as [Run, string][]) {
        runs[name].push(await measure(url, options.seconds, name in eachNew));
      }
    }
    const mean = (values: Throughput[]): Throughput => ({
      perSecond: values.reduce((sum, value) => sum + value.perSecond, 0) / values.length,
      perCpuSecond: values.reduce((sum, value) => sum + value.perCpuSecond, 0) / values.length,
    });
    const vs = (name: Run, baseline: Run) => {
      const figures = mean(runs[name]);
      const base = mean(runs[baseline]);
      // Each round's own ratio, to show how far one round strays from the next.
      const rounds = runs[name].map(
        (run, round) => run.perCpuSecond / (runs[baseline][round]?.perCpuSecond ?? Number.NaN),
      );
      return {
        ...figures,
        ratio: figures.perSecond / base.perSecond,
        cpuRatio: figures.perCpuSecond / base.perCpuSecond,
        cpuRatioRange: [Math.min(...rounds), Math.max(...rounds)] as const,
      };
    };
    return {
      bare: mean(runs.bare),
      app: vs("app", "bare"),
      observeNoLogLine: vs("observeNoLogLine", "bare"),
      observe: vs("observe", "bare"),
      rateLimit: vs("rateLimit", "bare"),
      production: vs("production", "bare"),
      productionEachNew: vs("productionEachNew", "bareEachNew"),
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
