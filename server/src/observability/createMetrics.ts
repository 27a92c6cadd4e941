import { Counter, Gauge, Histogram, Registry } from "prom-client";

export type Metrics = ReturnType<typeof createMetrics>;
export type CacheResult = "hit" | "coalesced" | "miss";
/** One address list file as /metrics shows it: by its file name only, never its directory. */
export type AddressListMetric = {
  file: string;
  entries: number;
  loadedAt: number;
  current: boolean;
};

/**
 * The Prometheus metrics of one process, in their own registry (tests build several side by side):
 * requests and latency per route, verdict levels, settlements by outcome, upstream RPC latency and
 * errors per chain, chain-facts cache results, rate-limited requests, whether the facilitator
 * answered last and what each address list file serves.
 * @example const metrics = createMetrics(); metrics.settlements.inc({ outcome: "settled" });
 */
export function createMetrics() {
  const registry = new Registry();
  let cacheSource: (() => Record<CacheResult, number>) | undefined;
  let facilitatorSource: (() => Record<string, 0 | 1>) | undefined;
  let addressListsSource: (() => readonly AddressListMetric[]) | undefined;
  return {
    registry,
    requests: new Counter({
      name: "presend_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status.",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: "presend_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route pattern.",
      labelNames: ["method", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    verdicts: new Counter({
      name: "presend_verdicts_total",
      help: "Paid reports answered, by route and verdict level.",
      labelNames: ["route", "level"] as const,
      registers: [registry],
    }),
    settlements: new Counter({
      name: "presend_settlements_total",
      help: "Payment settlements, by outcome (settled, failed, error).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    upstreamSeconds: new Histogram({
      name: "presend_upstream_rpc_duration_seconds",
      help: "Time of one upstream JSON-RPC request, by chain.",
      labelNames: ["chain"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    upstreamErrors: new Counter({
      name: "presend_upstream_rpc_errors_total",
      help: "Upstream JSON-RPC requests that failed, by chain.",
      labelNames: ["chain"] as const,
      registers: [registry],
    }),
    cache: new Counter({
      name: "presend_chain_cache_total",
      help: "Chain-facts reads, by result: hit (memory or shared cache), coalesced, miss (upstream request).",
      labelNames: ["result"] as const,
      registers: [registry],
      // Read at scrape time from the reader's own counters: one source, nothing to keep in step.
      collect() {
        if (!cacheSource) return;
        this.reset();
        for (const [result, count] of Object.entries(cacheSource())) this.inc({ result }, count);
      },
    }),
    /** Where the cache counters come from (the chain reader's stats). */
    readCacheFrom(source: () => Record<CacheResult, number>) {
      cacheSource = source;
    },
    facilitator: new Gauge({
      name: "presend_facilitator_state",
      help: "Whether the facilitator answered its last call (a paid request's, start-up's or a /readyz probe's): 1 for the state it is in (reachable, unreachable, unknown), 0 for the others.",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        if (!facilitatorSource) return;
        for (const [state, value] of Object.entries(facilitatorSource()))
          this.set({ state }, value);
      },
    }),
    /** Where the facilitator's state comes from (the payments' watch): 1 for the current one. */
    readFacilitatorFrom(source: () => Record<string, 0 | 1>) {
      facilitatorSource = source;
    },
    addressListEntries: new Gauge({
      name: "presend_address_list_entries",
      help: "Entries served from each address list file (ADDRESS_LISTS), by file name.",
      labelNames: ["file"] as const,
      registers: [registry],
      collect() {
        for (const list of addressListsSource?.() ?? [])
          this.set({ file: list.file }, list.entries);
      },
    }),
    addressListCurrent: new Gauge({
      name: "presend_address_list_current",
      help: "1 while an address list file holds what is served; 0 while its last change was refused or it is gone (the last good list is served).",
      labelNames: ["file"] as const,
      registers: [registry],
      collect() {
        for (const list of addressListsSource?.() ?? [])
          this.set({ file: list.file }, list.current ? 1 : 0);
      },
    }),
    addressListLoaded: new Gauge({
      name: "presend_address_list_loaded_timestamp_seconds",
      help: "When the served content of each address list file was read (Unix time): an update job that stopped shows as an old value.",
      labelNames: ["file"] as const,
      registers: [registry],
      collect() {
        for (const list of addressListsSource?.() ?? [])
          this.set({ file: list.file }, Math.floor(list.loadedAt / 1000));
      },
    }),
    /** Where the address lists' figures come from (the loaded lists' status). */
    readAddressListsFrom(source: () => readonly AddressListMetric[]) {
      addressListsSource = source;
    },
    rateLimited: new Counter({
      name: "presend_rate_limited_total",
      help: "Requests refused with 429, by limit (free, challenge).",
      labelNames: ["limit"] as const,
      registers: [registry],
    }),
  };
}
