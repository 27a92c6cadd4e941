import type { ChainHistory } from "@presend/shared/api/history";
import { type Address, numberToHex, pad } from "viem";
import { describe, expect, it } from "vitest";
import type { SharedFactsCache } from "../sharedFactsCache";
import { transferTopic } from "./buildHistoryBatch";
import { createHistoryReader } from "./createHistoryReader";

const address: Address = "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7";
const from: Address = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";
const usdc = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
type Call = { id: number; method: string; params: unknown[] };

/** A fake endpoint for the base chain (8453): answers single calls and batches, records them. */
function fakeEndpoint(
  options: { head?: bigint; logs?: unknown[]; status?: number; padding?: number } = {},
) {
  const calls: Call[][] = [];
  const answer = (call: Call) => {
    switch (call.method) {
      case "eth_chainId":
        return { jsonrpc: "2.0", id: call.id, result: "0x2105" };
      case "eth_blockNumber":
        return { jsonrpc: "2.0", id: call.id, result: numberToHex(options.head ?? 10_000_000n) };
      case "eth_getLogs":
        return { jsonrpc: "2.0", id: call.id, result: options.logs ?? [] };
      default:
        return { jsonrpc: "2.0", id: call.id, result: { txs: [], receipts: [] } };
    }
  };
  const fetch: typeof globalThis.fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body)) as Call | Call[];
    calls.push(Array.isArray(body) ? body : [body]);
    if (options.status) return new Response("down", { status: options.status });
    const text = JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body));
    // Padding on batches only: the head answer stays small, the history answer grows.
    const padding = Array.isArray(body) ? (options.padding ?? 0) : 0;
    return new Response(text + " ".repeat(padding), {
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch, calls };
}

const rpcUrls = (urls: string[]) => ({
  base: urls,
  ethereum: [],
  arbitrum: [],
  optimism: [],
  polygon: [],
});

/** A shared cache as another replica sees it: one map, what each reader kept and for how long. */
function sharedMap() {
  const entries = new Map<string, ChainHistory>();
  const kept: number[] = [];
  const cache: SharedFactsCache<ChainHistory> = {
    async through(key, read, ttlFor) {
      const hit = entries.get(key);
      if (hit) return { facts: structuredClone(hit), fromCache: true };
      const value = await read();
      kept.push(ttlFor(value));
      if (ttlFor(value) > 0) entries.set(key, value);
      return { facts: value, fromCache: false };
    },
  };
  return { cache, kept };
}

describe("createHistoryReader", () => {
  it("goes through the shared cache: a history one replica read is not read again by another, a refused one is not kept", async () => {
    const shared = sharedMap();
    const first = fakeEndpoint();
    const second = fakeEndpoint();
    const replica = (endpoint: ReturnType<typeof fakeEndpoint>) =>
      createHistoryReader({
        rpcUrls: rpcUrls(["http://a.test"]),
        fetch: endpoint.fetch,
        sharedCache: shared.cache,
      });
    const read = await replica(first).read({ address, from, chain: "base" });
    expect(read.status).toBe("read");
    expect(await replica(second).read({ address, from, chain: "base" })).toEqual(read);
    expect(second.calls).toHaveLength(0);
    const refusing = fakeEndpoint({ status: 429 });
    const other = { address: from, from: null, chain: "base" } as const;
    expect((await replica(refusing).read(other)).status).toBe("unknown");
    expect(shared.kept.at(-1)).toBe(0);
  });

  it("reads over the window back from the head, estimated from the last one as time passes", async () => {
    let now = 1_000_000;
    const endpoint = fakeEndpoint({ head: 10_000_000n });
    const reader = createHistoryReader({
      rpcUrls: rpcUrls(["http://a.test"]),
      windowBlocks: { base: 1_000 },
      fetch: endpoint.fetch,
      now: () => now,
      ttlMs: 0,
    });
    await reader.prime();
    now += 20_000; // 10 base blocks later
    const history = await reader.read({ address, from, chain: "base" });
    expect(history).toMatchObject({ status: "read", fromBlock: "9999010", toBlock: "10000000" });
    const logs = endpoint.calls[1]?.filter((call) => call.method === "eth_getLogs") ?? [];
    expect(logs.map((call) => (call.params[0] as { fromBlock: string }).fromBlock)).toEqual([
      numberToHex(9_999_010n),
      numberToHex(9_999_010n),
    ]);
  });

  it("falls back to the next endpoint, and says unknown without the endpoint's address when all fail", async () => {
    const down = fakeEndpoint({ status: 502 });
    const up = fakeEndpoint();
    const reader = createHistoryReader({
      rpcUrls: rpcUrls(["http://down.test/key-secret", "http://up.test"]),
      fetch: (url, init) =>
        String(url).includes("down") ? down.fetch(url, init) : up.fetch(url, init),
    });
    expect((await reader.read({ address, from: null, chain: "base" })).status).toBe("read");
    const failing = createHistoryReader({
      rpcUrls: rpcUrls(["http://down.test/key-secret"]),
      fetch: down.fetch,
    });
    const history = await failing.read({ address, from, chain: "base" });
    expect(history).toMatchObject({ status: "unknown", native: { status: "unknown" } });
    expect(history.error).toContain("HTTP 502");
    expect(JSON.stringify(history)).not.toContain("key-secret");
  });

  it("an answer over the size bound is aborted: history unknown", async () => {
    const endpoint = fakeEndpoint({ padding: 5_000 });
    const reader = createHistoryReader({
      rpcUrls: rpcUrls(["http://a.test"]),
      fetch: endpoint.fetch,
      maxResponseBytes: 2_000,
    });
    const history = await reader.read({ address, from, chain: "base" });
    expect(history).toMatchObject({ status: "unknown" });
    expect(history.error).toContain("response larger than 2000 bytes");
  });

  it("keeps a read history for the TTL and joins identical reads in flight", async () => {
    const log = {
      address: usdc,
      topics: [
        transferTopic,
        pad(from.toLowerCase() as `0x${string}`),
        pad(address.toLowerCase() as `0x${string}`),
      ],
      data: pad("0x0f4240"),
      blockNumber: "0x10",
      transactionHash: `0x${"01".repeat(32)}`,
      logIndex: "0x0",
    };
    const endpoint = fakeEndpoint({ logs: [log] });
    const reader = createHistoryReader({
      rpcUrls: rpcUrls(["http://a.test"]),
      fetch: endpoint.fetch,
    });
    const input = { address, from, chain: "base" as const };
    const [first, second] = await Promise.all([reader.read(input), reader.read(input)]);
    await reader.read(input);
    expect(first.sender?.paidRecipient?.payments).toBe(1);
    expect(second).toEqual(first);
    // The head once, then one batch for all three reads.
    expect(endpoint.calls).toHaveLength(2);
  });
});

describe("createHistoryReader: its own batch pinned to the head last read", () => {
  /** Gives the head `heads[n]` to the n-th request (the last one after). */
  function nodesAt(heads: bigint[]) {
    const calls: Call[][] = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Call | Call[];
      const batch = Array.isArray(body) ? body : [body];
      const head = heads[Math.min(calls.length, heads.length - 1)] as bigint;
      calls.push(batch);
      const answers = batch.map((call) => {
        if (call.method === "eth_chainId") return { jsonrpc: "2.0", id: call.id, result: "0x2105" };
        if (call.method === "eth_blockNumber") {
          return { jsonrpc: "2.0", id: call.id, result: numberToHex(head) };
        }
        // As anvil and older geth: logs up to a block past the head are those up to the head.
        if (call.method === "eth_getLogs") return { jsonrpc: "2.0", id: call.id, result: [] };
        return { jsonrpc: "2.0", id: call.id, result: { txs: [], receipts: [] } };
      });
      return Response.json(Array.isArray(body) ? answers : answers[0]);
    };
    const toBlocks = () =>
      calls.map((batch) => {
        const logs = batch.find((call) => call.method === "eth_getLogs");
        return (logs?.params[0] as { toBlock?: string } | undefined)?.toBlock;
      });
    return { fetch, toBlocks };
  }
  const input = { address, from, chain: "base" } as const;
  const readerOn = (node: ReturnType<typeof nodesAt>) =>
    createHistoryReader({ rpcUrls: rpcUrls(["https://rpc.example"]), ttlMs: 0, fetch: node.fetch });

  it("the log queries end at the head read before; a node behind it is asked once more up to its own", async () => {
    // The head at start, a read, then a request that meets a node 5 blocks behind.
    const node = nodesAt([100n, 100n, 95n, 95n]);
    const reader = readerOn(node);
    expect(await reader.read(input)).toMatchObject({ status: "read", toBlock: "100" });
    expect(await reader.read(input)).toMatchObject({ status: "read", toBlock: "95" });
    expect(node.toBlocks()).toEqual([undefined, "0x64", "0x64", "0x5f"]);
  });

  it("behind the block it is asked up to twice (another node behind again): unknown, never read short", async () => {
    const node = nodesAt([100n, 100n, 90n, 80n]);
    const reader = readerOn(node);
    await reader.read(input);
    const history = await reader.read(input);
    expect(history).toMatchObject({
      status: "unknown",
      error: "the node answering had not reached block 90 (its head was 80)",
    });
    expect(node.toBlocks()).toEqual([undefined, "0x64", "0x64", "0x5a"]);
  });
});
