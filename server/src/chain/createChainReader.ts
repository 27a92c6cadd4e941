import type { ChainFacts } from "@presend/shared/api/report";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { unavailableFacts } from "@presend/shared/verdict/unavailableFacts";
import { type Address, getAddress, isAddress } from "viem";
import { limits } from "../limits";
import { buildFactsBatch, type FactsBatchOptions, type JsonRpcRequest } from "./buildFactsBatch";
import {
  ChainReadError,
  RpcBlockNotReachedError,
  RpcHttpError,
  RpcMalformedResponseError,
  RpcMethodError,
  RpcNetworkError,
  RpcResponseTooLargeError,
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
  /**
   * How long a head the reader learned pins reads: within it a check reads every entry at that
   * block (default: the facts' cache lifetime, the age a served fact may have anyway).
   */
  pinWithinMs?: number;
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

/** What became of a companion's entries; `settle` hears it exactly once per read. */
export type CompanionOutcome =
  /**
   * Answered in the facts' own request; `facts` are what that answer said (chain id checked),
   * `block` the block the batch was pinned to (absent: each entry at its node's head).
   */
  | { type: "answered"; answers: unknown[]; facts: ChainFacts; block?: bigint }
  /** Answered, but the companion's part is unusable (e.g. over its size bound). */
  | { type: "failed"; error: string }
  /** Not sent (facts from a cache, or the shared request failed): the companion reads alone. */
  | { type: "alone" };

/**
 * Entries another reader sends in the same JSON-RPC batch as the facts (the history's log
 * queries), so a check costs one HTTP request per chain. Their ids must not clash with the facts
 * batch's; their answers are bounded apart from the facts' (`maxResponseBytes`), and whatever
 * they answer (a refused range, an oversized result) never fails the facts.
 */
export type BatchCompanion = {
  /** The entries, reading up to `block` when the batch is pinned to one. */
  entries(block: bigint | undefined): JsonRpcRequest[];
  maxResponseBytes: number;
  settle(outcome: CompanionOutcome): void;
};

export type ReadOptions = FactsBatchOptions & { companion?: BatchCompanion };

export type ChainReader = {
  /**
   * Facts for one address on one chain; never throws (status "unavailable" instead). With a
   * `sender`, the receive simulation sends from it, as the real send would; with a `companion`,
   * its entries ride in the same request when one goes upstream.
   */
  read(address: Address, chain: ChainName, options?: ReadOptions): Promise<ChainFacts>;
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
  const pinWithinMs = options.pinWithinMs ?? limits.factsCacheTtlMs;

  const cache = new Map<string, CacheEntry>();
  // Each chain's head as an unpinned answer last gave it. Load balancers send consecutive calls,
  // and some the entries of one batch, to nodes at different heights: a check pinned to one
  // block reads every fact of that block, or hears from a node that has not reached it.
  const heads = new Map<ChainName, { block: bigint; at: number }>();
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
    companion: BatchCompanion | undefined,
  ): Promise<ChainFacts> {
    counters.upstreamRequests++;
    counters.perChain[chain]++;
    // A timer cleared on completion rather than AbortSignal.timeout: that one stays armed after
    // the read and fires (a DOMException and an abort event) for every read, seconds later.
    const controller = new AbortController();
    const { signal } = controller;
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const batch = buildFactsBatch(address, chain, batchOptions);
    const companionEntries = companion?.entries(batchOptions.block) ?? [];
    let text: string;
    try {
      const response = await fetchFn(url, {
        method: "POST",
        headers: jsonHeaders,
        body: JSON.stringify(companion ? [...batch, ...companionEntries] : batch),
        signal,
      });
      if (!response.ok) {
        // Release the connection; the body of an error page is of no use here.
        await response.body?.cancel().catch(() => {});
        throw new RpcHttpError(response.status);
      }
      text = await readCappedText(
        response,
        maxResponseBytes + (companion ? companion.maxResponseBytes : 0),
      );
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
    const lean = {
      lean: batchOptions.lean === true,
      ...(batchOptions.block !== undefined && { block: batchOptions.block }),
    };
    if (!companion || !Array.isArray(body)) return parseFactsBatch(chain, body, address, lean);
    // One answer for both: each part is bounded and judged on its own.
    const theirIds = new Set(companionEntries.map((entry) => entry.id));
    const own: unknown[] = [];
    const theirs: unknown[] = [];
    for (const entry of body as { id?: unknown }[]) {
      (theirIds.has(entry?.id as number) ? theirs : own).push(entry);
    }
    const ownBytes = Buffer.byteLength(JSON.stringify(own));
    if (ownBytes > maxResponseBytes) throw new RpcResponseTooLargeError(maxResponseBytes);
    const facts = parseFactsBatch(chain, own, address, lean);
    const theirBytes = Buffer.byteLength(text) - ownBytes;
    companion.settle(
      theirBytes > companion.maxResponseBytes
        ? {
            type: "failed",
            error: new RpcResponseTooLargeError(companion.maxResponseBytes).shortMessage,
          }
        : {
            type: "answered",
            answers: theirs,
            facts,
            ...(batchOptions.block !== undefined && { block: batchOptions.block }),
          },
    );
    return facts;
  }

  async function readUpstream(
    address: Address,
    chain: ChainName,
    batchOptions: FactsBatchOptions,
    companion: BatchCompanion | undefined,
  ): Promise<ChainFacts> {
    const urls = options.rpcUrls[chain] ?? [];
    if (urls.length === 0) return unavailableFacts(chain, "no RPC endpoint configured");
    const start = preferred.get(chain) ?? 0;
    const failures: string[] = [];
    let riding = companion;
    let asking = batchOptions;
    let pin = pinnedHead(chain);
    for (let step = 0; step < urls.length; step++) {
      const index = (start + step) % urls.length;
      const url = urls[index] as string;
      try {
        const facts = await fetchFrom(url, address, chain, { ...asking, block: pin }, riding);
        preferred.set(chain, index);
        if (pin === undefined && facts.blockNumber !== null) learnHead(chain, facts.blockNumber);
        return facts;
      } catch (error) {
        // A node behind the pinned block (another behind the same load balancer, or the chain
        // after a reorg to a shorter branch): asked once more at its head, which is learned anew.
        if (pin !== undefined && error instanceof RpcBlockNotReachedError) {
          heads.delete(chain);
          pin = undefined;
          step--;
          continue;
        }
        if (riding) {
          // The shared request failed: the companion reads on its own from here, and when its
          // entries may be what the endpoint refused, the facts are asked again alone there.
          riding.settle({ type: "alone" });
          riding = undefined;
          if (mayBeTheCompanions(error)) {
            step--;
            continue;
          }
        }
        // An answer over the bound may be the address's own doing (a contract answering a probe,
        // or logging on receipt, with megabytes): asked again there without those parts, the
        // rest of the facts still make a report, with what they would have said unknown. The
        // next endpoint is asked in full again (this one may just have sent a huge body).
        if (error instanceof RpcResponseTooLargeError && !asking.lean) {
          asking = { ...asking, lean: true };
          step--;
          continue;
        }
        asking = batchOptions;
        const reason =
          error instanceof ChainReadError
            ? error.shortMessage
            : `unexpected error (${String(error)})`;
        failures.push(`${endpointLabel(index)}: ${reason}`);
      }
    }
    return unavailableFacts(chain, `all RPC endpoints failed: ${failures.join("; ")}`);
  }

  /**
   * A head an unpinned answer gave. Never back while the one known is young: a node behind the
   * others answered, and the next checks read at the higher block (a node that has not reached
   * it says so, and the check is asked again at the head).
   */
  function learnHead(chain: ChainName, blockNumber: string) {
    const block = BigInt(blockNumber);
    const known = pinnedHead(chain);
    if (known === undefined || block >= known) heads.set(chain, { block, at: now() });
  }

  /** The head reads are pinned to, while the one last learned is young enough. */
  function pinnedHead(chain: ChainName): bigint | undefined {
    const known = heads.get(chain);
    return known && now() - known.at <= pinWithinMs ? known.block : undefined;
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
    readOptions: ReadOptions = {},
  ): Promise<ChainFacts> {
    const { companion: given, ...batchOptions } = readOptions;
    const companion = given && settledOnce(given);
    try {
      return await readThrough(address, chain, batchOptions, companion);
    } finally {
      // Served from a cache or joined to another read: the companion was never sent.
      companion?.settle({ type: "alone" });
    }
  }

  async function readThrough(
    address: Address,
    chain: ChainName,
    batchOptions: FactsBatchOptions,
    companion: BatchCompanion | undefined,
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
        // Joined to a read already on its way: the companion goes now, not after it.
        companion?.settle({ type: "alone" });
        return structuredClone(await pending);
      }
      const startedIn = generation;
      const upstream = () =>
        readUpstream(
          getAddress(address),
          chain,
          sender ? { sender: getAddress(sender) } : {},
          companion,
        );
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

/** The same companion, whose `settle` counts only its first call. */
function settledOnce(companion: BatchCompanion): BatchCompanion {
  let settled = false;
  return {
    ...companion,
    settle: (outcome) => {
      if (settled) return;
      settled = true;
      companion.settle(outcome);
    },
  };
}

/**
 * Failures a companion's entries may have caused (a batch or an answer too large, a refused or
 * garbled batch): worth asking for the facts alone on the same endpoint before moving on.
 */
function mayBeTheCompanions(error: unknown): boolean {
  if (error instanceof RpcResponseTooLargeError || error instanceof RpcMalformedResponseError) {
    return true;
  }
  if (error instanceof RpcMethodError) return error.method === "batch";
  return error instanceof RpcHttpError && (error.status === 413 || error.status === 400);
}

/**
 * An endpoint by its place in the chain's list, never by its URL: the failure reaches answers
 * (reports, 503s), where an operator's provider, host, or key in a path has no place. The
 * operator finds it in the order they configured.
 */
function endpointLabel(index: number): string {
  return `endpoint ${index + 1}`;
}
