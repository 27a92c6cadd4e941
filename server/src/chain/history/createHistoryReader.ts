import type { ChainHistory } from "@presend/shared/api/history";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { HistoryRead, NativeSend } from "@presend/shared/verdict/summarizeHistory";
import { summarizeHistory } from "@presend/shared/verdict/summarizeHistory";
import { type Address, getAddress, hexToBigInt, isHex, numberToHex } from "viem";
import { limits } from "../../limits";
import { maxBatchEntries } from "../buildFactsBatch";
import type { BatchCompanion, CompanionOutcome } from "../createChainReader";
import {
  ChainReadError,
  RpcHttpError,
  RpcMalformedResponseError,
  RpcNetworkError,
  RpcTimeoutError,
} from "../errors";
import { readCappedText } from "../readCappedText";
import type { SharedFactsCache } from "../sharedFactsCache";
import {
  buildHistoryBatch,
  buildHistoryCompanion,
  companionIdOffset,
  historyBatchIds,
  historyTokens,
} from "./buildHistoryBatch";
import { defaultWindowBlocks, secondsPerBlock } from "./historyWindow";
import { type InnerTransaction, parseHistoryBatch, parseInternalSends } from "./parseHistoryBatch";

export type HistoryReaderOptions = {
  /** History-capable endpoints per chain (archive, Erigon/Reth, no log range cap), in order. */
  rpcUrls: Record<ChainName, readonly string[]>;
  /**
   * The facts reader's endpoints: on a chain whose history endpoints are the same list, the
   * history's log queries ride in the facts' own batch (`ride`), one HTTP request per check.
   */
  factsRpcUrls?: Record<ChainName, readonly string[]>;
  /** Blocks back from the head to read, per chain (default about 180 days). */
  windowBlocks?: Partial<Record<ChainName, number>>;
  timeoutMs?: number;
  /** Largest answer read; a larger one makes the history unknown (default 4 MB). */
  maxResponseBytes?: number;
  /** Most Transfer events one query may return; more makes the history unknown. */
  maxLogs?: number;
  ttlMs?: number;
  maxEntries?: number;
  /** Shared by every replica (Redis): a history another replica read is not read again. */
  sharedCache?: SharedFactsCache<ChainHistory>;
  fetch?: typeof fetch;
  now?: () => number;
  /**
   * How long the head last read pins the history's own batch: within it the log queries end at
   * that block (default: the facts' cache lifetime).
   */
  pinWithinMs?: number;
};

export type HistoryInput = { address: Address; from: Address | null; chain: ChainName };

/** A history read that rides in the facts batch: `companion` goes to the facts reader. */
export type HistoryRide = {
  /** null when the history needs no request (it came from the shared cache). */
  companion: BatchCompanion | null;
  history: Promise<ChainHistory>;
};

export type HistoryReader = {
  /** The history around one check on one chain; never throws (status "unknown" instead). */
  read(input: HistoryInput): Promise<ChainHistory>;
  /**
   * The same read, its log queries handed to the facts reader to send in the facts' batch; null
   * when it cannot ride (another endpoint, head never read, already cached or in flight) and
   * `read` is the way.
   */
  ride(input: HistoryInput): Promise<HistoryRide | null>;
  stats(): { upstreamRequests: number; perChain: Record<ChainName, number> };
  /**
   * Reads each chain's head once (start-up), so even the first check of a chain is one round
   * trip; a chain that does not answer learns its head on its first check instead.
   */
  prime(): Promise<void>;
};

const jsonHeaders = { "content-type": "application/json", accept: "application/json" };

/**
 * Reads the token history around a check: one JSON-RPC batch per chain (two eth_getLogs and, with
 * a sender, Otterscan's ots_searchTransactionsBefore) sent beside the facts batch, so a check
 * stays one round trip. The block window ends at the head, estimated from the last head read
 * (`prime()` reads each chain's head at start; otherwise a chain's first read asks for it
 * first). Fallback endpoints, a TTL cache and in-flight coalescing like the facts reader.
 * @example await createHistoryReader({ rpcUrls }).read({ address, from, chain: "base" })
 */
export function createHistoryReader(options: HistoryReaderOptions): HistoryReader {
  const timeoutMs = options.timeoutMs ?? limits.rpcTimeoutMs;
  const maxResponseBytes = options.maxResponseBytes ?? limits.historyAnswerBytes;
  const maxLogs = options.maxLogs ?? limits.historyMaxTransfers;
  const ttlMs = options.ttlMs ?? limits.factsCacheTtlMs;
  const maxEntries = options.maxEntries ?? 10_000;
  const fetchFn = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const pinWithinMs = options.pinWithinMs ?? limits.factsCacheTtlMs;
  const cache = new Map<string, { history: ChainHistory; expiresAt: number }>();
  const inFlight = new Map<string, Promise<ChainHistory>>();
  const heads = new Map<ChainName, { block: bigint; at: number }>();
  const preferred = new Map<ChainName, number>();
  const counters = {
    upstreamRequests: 0,
    perChain: Object.fromEntries(chainNames.map((name) => [name, 0])) as Record<ChainName, number>,
  };

  async function post(url: string, chain: ChainName, body: unknown): Promise<unknown> {
    counters.upstreamRequests++;
    counters.perChain[chain]++;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let text: string;
    try {
      const response = await fetchFn(url, {
        method: "POST",
        headers: jsonHeaders,
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new RpcHttpError(response.status);
      }
      text = await readCappedText(response, maxResponseBytes);
    } catch (error) {
      if (error instanceof ChainReadError) throw error;
      if (controller.signal.aborted) throw new RpcTimeoutError(timeoutMs);
      throw new RpcNetworkError(error);
    } finally {
      clearTimeout(timer);
    }
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new RpcMalformedResponseError("not JSON", { cause });
    }
  }

  /** The head now, estimated from the last one read; asked once when never read. */
  async function estimatedHead(url: string, chain: ChainName): Promise<bigint> {
    const known = heads.get(chain);
    if (known) {
      const elapsed = BigInt(Math.floor((now() - known.at) / 1000 / secondsPerBlock[chain]));
      return known.block + elapsed;
    }
    const answer = (await post(url, chain, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_blockNumber",
      params: [],
    })) as {
      result?: unknown;
    };
    const result = answer?.result;
    if (typeof result !== "string" || !isHex(result)) {
      throw new RpcMalformedResponseError("eth_blockNumber: not a quantity");
    }
    const block = hexToBigInt(result);
    heads.set(chain, { block, at: now() });
    return block;
  }

  function windowStart(chain: ChainName, head: bigint): bigint {
    const window = BigInt(options.windowBlocks?.[chain] ?? defaultWindowBlocks(chain));
    return head > window ? head - window : 0n;
  }

  async function readFrom(url: string, input: HistoryInput): Promise<ChainHistory> {
    const fromBlock = windowStart(input.chain, await estimatedHead(url, input.chain));
    // The queries end at the head last read, while it is young: a node that has not reached it
    // (behind the others of a load balancer) is found out instead of answering up to its own.
    const known = heads.get(input.chain);
    const pin = known && now() - known.at <= pinWithinMs ? known.block : undefined;
    const readAt = async (toBlock: bigint | undefined) => {
      const at = { fromBlock, ...(toBlock !== undefined && { toBlock }) };
      const body = await post(url, input.chain, buildHistoryBatch({ ...input, ...at }));
      return parseHistoryBatch(input.chain, body, { ...input, ...at, maxLogs });
    };
    let read = await readAt(pin);
    if (pin !== undefined && read.status === "unknown" && read.notReached) {
      // Asked once more: the load balancer may send it to a node that has the block; a node
      // whose own head is lower (the chain reorganised to a shorter branch) is asked up to it.
      read = await readAt(read.head !== null && read.head < pin ? read.head : pin);
    }
    if (read.head !== null) heads.set(input.chain, { block: read.head, at: now() });
    return summarizeHistory({
      recipient: input.address,
      sender: input.from,
      read: await withInternalSends(url, input, read),
    });
  }

  /**
   * The ETH the sender sent in internal calls, read with Otterscan's ots_getInternalOperations
   * for each transaction it took part in without signing (a Safe's, an ERC-4337 account's): one
   * more round trip, only for such senders. Where it fails, those sends are named as not read.
   */
  async function withInternalSends(
    url: string,
    input: HistoryInput,
    read: HistoryRead & { inner: InnerTransaction[] },
  ): Promise<HistoryRead> {
    const native = read.native;
    const sender = input.from;
    if (read.status !== "read" || native.status !== "read" || sender === null) return read;
    if (read.inner.length === 0) return read;
    const transactions = read.inner.length;
    const unknown = (error: string): HistoryRead => ({
      ...read,
      native: { ...native, internal: { status: "unknown", transactions, error } },
    });
    const chunks: InnerTransaction[][] = [];
    for (let start = 0; start < read.inner.length; start += maxBatchEntries) {
      chunks.push(read.inner.slice(start, start + maxBatchEntries));
    }
    try {
      const answers = await Promise.all(
        chunks.map((chunk) =>
          post(
            url,
            input.chain,
            chunk.map((transaction, index) => ({
              jsonrpc: "2.0",
              id: index + 1,
              method: "ots_getInternalOperations",
              params: [transaction.hash],
            })),
          ),
        ),
      );
      const internalSends: NativeSend[] = [];
      for (const [chunkIndex, body] of answers.entries()) {
        if (!Array.isArray(body)) return unknown("ots_getInternalOperations: not a batch answer");
        const byId = new Map<unknown, { result?: unknown; error?: { code?: unknown } }>();
        for (const entry of body) byId.set(entry?.id, entry);
        for (const [index, transaction] of (chunks[chunkIndex] ?? []).entries()) {
          const entry = byId.get(index + 1);
          if (!entry) return unknown("no answer to ots_getInternalOperations");
          if (entry.error) {
            const code = typeof entry.error.code === "number" ? entry.error.code : null;
            return unknown(
              code === -32601
                ? "the endpoint has no ots_getInternalOperations"
                : `ots_getInternalOperations failed${code === null ? "" : ` (code ${code})`}`,
            );
          }
          internalSends.push(...parseInternalSends(entry.result, sender, transaction));
        }
      }
      return {
        ...read,
        native: {
          ...native,
          sends: [...native.sends, ...internalSends],
          internal: { status: "read", transactions },
        },
      };
    } catch (error) {
      return unknown(
        error instanceof ChainReadError
          ? `ots_getInternalOperations: ${error.shortMessage}`
          : "ots_getInternalOperations failed",
      );
    }
  }

  function unknownHistory(input: HistoryInput, error: string): ChainHistory {
    return summarizeHistory({
      recipient: input.address,
      sender: input.from,
      read: {
        status: "unknown",
        tokens: historyTokens(input.chain).map((token) => token.symbol),
        error,
        native: input.from === null ? { status: "not_asked" } : { status: "unknown", error },
      },
    });
  }

  async function readUpstream(input: HistoryInput): Promise<ChainHistory> {
    const urls = options.rpcUrls[input.chain] ?? [];
    const unknown = (error: string) => unknownHistory(input, error);
    if (urls.length === 0) return unknown("no history endpoint configured");
    const start = preferred.get(input.chain) ?? 0;
    const failures: string[] = [];
    for (let step = 0; step < urls.length; step++) {
      const index = (start + step) % urls.length;
      const url = urls[index] as string;
      try {
        const history = await readFrom(url, input);
        preferred.set(input.chain, index);
        return history;
      } catch (error) {
        failures.push(
          error instanceof ChainReadError
            ? error.shortMessage
            : `unexpected error (${String(error)})`,
        );
      }
    }
    return unknown(`the history endpoint failed: ${failures.join("; ")}`);
  }

  function normalize(input: HistoryInput): { input: HistoryInput; key: string } {
    const normalized = {
      address: getAddress(input.address.toLowerCase()),
      from: input.from === null ? null : getAddress(input.from.toLowerCase()),
      chain: input.chain,
    };
    return {
      input: normalized,
      key: `${input.chain}:${normalized.address}:${normalized.from ?? "-"}`,
    };
  }

  function fromMemory(key: string): ChainHistory | undefined {
    const cached = cache.get(key);
    return cached && now() < cached.expiresAt ? cached.history : undefined;
  }

  async function read(input: HistoryInput): Promise<ChainHistory> {
    const { input: normalized, key } = normalize(input);
    const cached = fromMemory(key);
    if (cached) return structuredClone(cached);
    const pending = inFlight.get(key);
    if (pending) return structuredClone(await pending);
    return structuredClone(await readThrough(key, () => readUpstream(normalized)));
  }

  /** Through the shared cache to `upstream`, kept in memory, joined by identical reads. */
  function readThrough(key: string, upstream: () => Promise<ChainHistory>): Promise<ChainHistory> {
    // Only a read history is kept: the next check deserves a fresh attempt after a refusal.
    const keptFor = (history: ChainHistory) => (history.status === "read" ? ttlMs : 0);
    const shared = options.sharedCache;
    const promise = (
      shared
        ? shared.through(key, upstream, keptFor).then(({ facts: history }) => history)
        : upstream()
    )
      .then((history) => {
        if (keptFor(history) > 0) {
          cache.delete(key);
          cache.set(key, { history, expiresAt: now() + ttlMs });
          while (cache.size > maxEntries) {
            const oldest = cache.keys().next().value;
            if (oldest === undefined) break;
            cache.delete(oldest);
          }
        }
        return history;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  }

  function ridesWithFacts(chain: ChainName): boolean {
    const own = options.rpcUrls[chain] ?? [];
    const facts = options.factsRpcUrls?.[chain];
    return (
      facts !== undefined &&
      own.length > 0 &&
      own.length === facts.length &&
      own.every((url, index) => url === facts[index])
    );
  }

  async function ride(input: HistoryInput): Promise<HistoryRide | null> {
    if (!ridesWithFacts(input.chain)) return null;
    const { input: normalized, key } = normalize(input);
    if (fromMemory(key) || inFlight.has(key)) return null;
    const known = heads.get(input.chain);
    if (!known) return null;
    const elapsed = BigInt(Math.floor((now() - known.at) / 1000 / secondsPerBlock[input.chain]));
    const fromBlock = windowStart(input.chain, known.block + elapsed);
    // The chain id and the head come from the facts' answer; the queries end at the block the
    // facts are pinned to, when they are.
    const entries = (toBlock: bigint | undefined) =>
      buildHistoryCompanion({
        ...normalized,
        fromBlock,
        ...(toBlock !== undefined && { toBlock }),
      });
    let needed = () => {};
    const upstreamCalled = new Promise<void>((resolve) => {
      needed = resolve;
    });
    let settle: (outcome: CompanionOutcome) => void = () => {};
    const outcome = new Promise<CompanionOutcome>((resolve) => {
      settle = resolve;
    });
    const upstream = async (): Promise<ChainHistory> => {
      needed();
      const answer = await outcome;
      if (answer.type === "alone") return readUpstream(normalized);
      if (answer.type === "failed") {
        return unknownHistory(normalized, `the history endpoint failed: ${answer.error}`);
      }
      try {
        return await parseRide(normalized, fromBlock, answer);
      } catch (error) {
        const reason =
          error instanceof ChainReadError
            ? error.shortMessage
            : `unexpected error (${String(error)})`;
        return unknownHistory(normalized, `the history endpoint failed: ${reason}`);
      }
    };
    const history = readThrough(key, upstream).then((value) => structuredClone(value));
    // Without a shared cache the read goes upstream at once; with one, a hit answers first.
    const goesUpstream = await Promise.race([
      upstreamCalled.then(() => true),
      history.then(() => false),
    ]);
    return {
      companion: goesUpstream
        ? { entries, maxResponseBytes, settle: (answer) => settle(answer) }
        : null,
      history,
    };
  }

  /** The history from the answers that rode in the facts batch, the chain id and head from the facts. */
  async function parseRide(
    input: HistoryInput,
    fromBlock: bigint,
    answer: Extract<CompanionOutcome, { type: "answered" }>,
  ): Promise<ChainHistory> {
    const body = [
      { id: historyBatchIds.chainId, result: numberToHex(answer.facts.chainId) },
      ...(answer.facts.blockNumber === null
        ? []
        : [
            {
              id: historyBatchIds.blockNumber,
              result: numberToHex(BigInt(answer.facts.blockNumber)),
            },
          ]),
      ...(answer.answers as { id?: unknown }[]).map((entry) => ({
        ...entry,
        id: typeof entry?.id === "number" ? entry.id - companionIdOffset : entry?.id,
      })),
    ];
    const read = parseHistoryBatch(input.chain, body, {
      ...input,
      fromBlock,
      ...(answer.block !== undefined && { toBlock: answer.block }),
      maxLogs,
    });
    if (read.head !== null && answer.block === undefined) {
      heads.set(input.chain, { block: read.head, at: now() });
    }
    const urls = options.rpcUrls[input.chain] ?? [];
    const url = urls[preferred.get(input.chain) ?? 0] ?? urls[0];
    return summarizeHistory({
      recipient: input.address,
      sender: input.from,
      read: url === undefined ? read : await withInternalSends(url, input, read),
    });
  }

  async function prime(): Promise<void> {
    await Promise.all(
      chainNames.map(async (chain) => {
        const url = options.rpcUrls[chain]?.[0];
        if (url === undefined || heads.has(chain)) return;
        await estimatedHead(url, chain).catch(() => {});
      }),
    );
  }

  return {
    read,
    ride,
    prime,
    stats: () => ({ ...counters, perChain: { ...counters.perChain } }),
  };
}
