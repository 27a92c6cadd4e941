import type { ChainFacts } from "@presend/shared/api/report";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { unavailableFacts } from "@presend/shared/verdict/unavailableFacts";
import { type Address, getAddress, isAddress } from "viem";
import { limits } from "../limits";
import { buildFactsBatch, type FactsBatchOptions } from "./buildFactsBatch";
import {
  ChainReadError,
  RpcHttpError,
  RpcMalformedResponseError,
  RpcNetworkError,
  RpcTimeoutError,
} from "./errors";
import { parseFactsBatch } from "./parseFactsBatch";
import { readCappedText } from "./readCappedText";
import type { SharedFactsCache } from "./sharedFactsCache";

export type ChainReaderOptions = {
  /** Endpoints per chain, tried in order (starting at the last one that worked). */
  rpcUrls: Record<ChainName, readonly string[]>;
  /** Per-endpoint budget for the whole request, body included. */
  timeoutMs?: number;
  /** Largest answer accepted from an endpoint; a larger one is aborted (default 1 MB). */
  maxResponseBytes?: number;
  /** How long a successful read is served from memory. */
  ttlMs?: number;
  /**
   * How long an unavailable result is served from memory. Default 0: a caller pays per check, so
   * each check deserves a fresh attempt once the chain is back; concurrent reads of the same key
   * still share one attempt (coalescing), so an outage does not multiply upstream load.
   */
  failureTtlMs?: number;
  /** Cache size bound; the oldest entries go first. */
  maxEntries?: number;
  fetch?: typeof fetch;
  /** Shared by replicas (REDIS_URL): consulted on a memory miss, filled after an upstream read. */
  sharedCache?: SharedFactsCache;
  /** Clock for cache expiry (tests inject one). */
  now?: () => number;
};

export type ChainReaderStats = {
  /** HTTP requests sent to RPC endpoints, failed ones included. */
  upstreamRequests: number;
  perChain: Record<ChainName, number>;
  /** Reads answered from the TTL cache. */
  cacheHits: number;
  /** Reads that joined an identical read already in flight. */
  coalesced: number;
};

export type ChainReader = {
  /**
   * Facts for one address on one chain; never throws (status "unavailable" instead). With a
   * `sender`, the receive simulation sends from it, as the real send would.
   */
  read(address: Address, chain: ChainName, options?: FactsBatchOptions): Promise<ChainFacts>;
  stats(): ChainReaderStats;
  /** Drops cached facts (stats are kept); reads in flight when it is called are not cached. */
  clear(): void;
};

type CacheEntry = { facts: ChainFacts; expiresAt: number };

const jsonHeaders = { "content-type": "application/json", accept: "application/json" };

/**
 * A chain reader: one batched JSON-RPC request per (address, chain), fallback endpoints, TTL cache
 * and in-flight coalescing.
 * @example const facts = await createChainReader({ rpcUrls: defaultRpcUrls }).read(address, "base");
 */
export function createChainReader(options: ChainReaderOptions): ChainReader {
  const timeoutMs = options.timeoutMs ?? limits.rpcTimeoutMs;
  const ttlMs = options.ttlMs ?? limits.factsCacheTtlMs;
  // A facts batch answer is a few kB; 1 MB leaves room for verbose nodes and nothing more.
  const maxResponseBytes = options.maxResponseBytes ?? limits.upstreamAnswerBytes;
  const failureTtlMs = options.failureTtlMs ?? 0;
  const maxEntries = options.maxEntries ?? 10_000;
  const fetchFn = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;

  const cache = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<ChainFacts>>();
  // Index of the endpoint that last answered, per chain: a dead first endpoint costs one timeout
  // once, not on every read.
  const preferred = new Map<ChainName, number>();
  // Bumped by clear(), so a read that started before it does not refill the cache afterwards.
  let generation = 0;
  const counters = {
    upstreamRequests: 0,
    perChain: Object.fromEntries(chainNames.map((name) => [name, 0])) as Record<ChainName, number>,
    cacheHits: 0,
    coalesced: 0,
  };

  async function fetchFrom(
    url: string,
    address: Address,
    chain: ChainName,
    batchOptions: FactsBatchOptions,
  ): Promise<ChainFacts> {
    counters.upstreamRequests++;
    counters.perChain[chain]++;
    // A timer cleared on completion rather than AbortSignal.timeout: that one stays armed after
    // the read and fires (a DOMException and an abort event) for every read, seconds later.
    const controller = new AbortController();
    const { signal } = controller;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let text: string;
    try {
      const response = await fetchFn(url, {
        method: "POST",
        headers: jsonHeaders,
        body: JSON.stringify(buildFactsBatch(address, chain, batchOptions)),
        signal,
      });
      if (!response.ok) {
        // Release the connection; the body of an error page is of no use here.
        await response.body?.cancel().catch(() => {});
        throw new RpcHttpError(response.status);
      }
      text = await readCappedText(response, maxResponseBytes);
    } catch (error) {
      if (error instanceof ChainReadError) throw error;
      if (signal.aborted) throw new RpcTimeoutError(timeoutMs);
      throw new RpcNetworkError(error);
    } finally {
      clearTimeout(timer);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw new RpcMalformedResponseError("not JSON", { cause });
    }
    return parseFactsBatch(chain, body, address);
  }

  async function readUpstream(
    address: Address,
    chain: ChainName,
    batchOptions: FactsBatchOptions,
  ): Promise<ChainFacts> {
    const urls = options.rpcUrls[chain] ?? [];
    if (urls.length === 0) return unavailableFacts(chain, "no RPC endpoint configured");
    const start = preferred.get(chain) ?? 0;
    const failures: string[] = [];
    for (let step = 0; step < urls.length; step++) {
      const index = (start + step) % urls.length;
      const url = urls[index] as string;
      try {
        const facts = await fetchFrom(url, address, chain, batchOptions);
        preferred.set(chain, index);
        return facts;
      } catch (error) {
        const reason =
          error instanceof ChainReadError
            ? error.shortMessage
            : `unexpected error (${String(error)})`;
        failures.push(`${endpointLabel(url, index)}: ${reason}`);
      }
    }
    return unavailableFacts(chain, `all RPC endpoints failed: ${failures.join("; ")}`);
  }

  function remember(key: string, facts: ChainFacts) {
    const ttl = facts.status === "ok" ? ttlMs : failureTtlMs;
    if (ttl <= 0) return;
    cache.delete(key);
    cache.set(key, { facts, expiresAt: now() + ttl });
    // Map iteration order is insertion order, so the first key is the oldest entry.
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  async function read(
    address: Address,
    chain: ChainName,
    batchOptions: FactsBatchOptions = {},
  ): Promise<ChainFacts> {
    try {
      if (!Object.hasOwn(chains, chain))
        return unavailableFacts(chain, `unknown chain ${String(chain)}`);
      if (!isAddress(address, { strict: false })) return unavailableFacts(chain, "invalid address");
      const { sender } = batchOptions;
      if (sender !== undefined && !isAddress(sender, { strict: false })) {
        return unavailableFacts(chain, "invalid sender");
      }
      // The simulation depends on who sends, so facts read for one sender are not another's.
      const key = `${chain}:${address.toLowerCase()}${sender ? `:${sender.toLowerCase()}` : ""}`;
      const cached = cache.get(key);
      if (cached) {
        if (now() < cached.expiresAt) {
          counters.cacheHits++;
          return structuredClone(cached.facts);
        }
        cache.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending) {
        counters.coalesced++;
        return structuredClone(await pending);
      }
      const startedIn = generation;
      const upstream = () =>
        readUpstream(getAddress(address), chain, sender ? { sender: getAddress(sender) } : {});
      const ttlFor = (facts: ChainFacts) => (facts.status === "ok" ? ttlMs : failureTtlMs);
      const shared = options.sharedCache;
      const read = shared
        ? shared.through(key, upstream, ttlFor).then(({ facts, fromCache }) => {
            if (fromCache) counters.cacheHits++;
            return facts;
          })
        : upstream();
      const promise = read
        .catch((error: unknown) => unavailableFacts(chain, `unexpected error (${String(error)})`))
        .then((facts) => {
          if (startedIn === generation) remember(key, facts);
          return facts;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return structuredClone(await promise);
    } catch (error) {
      return unavailableFacts(chain, `unexpected error (${String(error)})`);
    }
  }

  return {
    read,
    stats: () => ({ ...counters, perChain: { ...counters.perChain } }),
    clear: () => {
      cache.clear();
      generation++;
    },
  };
}

/** Host (and port) only: paths and queries of RPC URLs often carry API keys. */
function endpointLabel(url: string, index: number): string {
  try {
    return new URL(url).host;
  } catch {
    return `endpoint ${index + 1}`;
  }
}
