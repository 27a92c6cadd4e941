import { chains } from "@presend/shared/chains/chains";
import { type Address, getAddress } from "viem";
import { describe, expect, it, vi } from "vitest";
import { buildFactsBatch, type JsonRpcRequest } from "./buildFactsBatch";
import { type CompanionOutcome, createChainReader } from "./createChainReader";
import { answerFactsBatch, type FakeChainState } from "./fakeRpc";

const alice: Address = "0xd8da6bf26964af9d7eed9e03e53415d37aa96045";
const bob: Address = "0x2222222222222222222222222222222222222222";
const first = "https://first.example/v1/SECRET-KEY";
const second = "https://second.example/rpc";
const urls = { base: [first, second], ethereum: [], arbitrum: [], optimism: [], polygon: [] };

type Behaviour = "ok" | "throw" | "503" | "garbage" | "rpc-error" | "hang";

/** A fetch that plays one behaviour per host and answers good batches from `state`. */
function fakeFetch(behaviours: Record<string, Behaviour>, state: Partial<FakeChainState> = {}) {
  return vi.fn<typeof fetch>(async (input, init) => {
    const host = new URL(String(input)).host;
    const batch = JSON.parse(String(init?.body)) as JsonRpcRequest[];
    switch (behaviours[host] ?? "ok") {
      case "throw":
        // The shape of undici's failure: a generic message, the system code in the cause.
        throw new TypeError(`fetch failed for ${String(input)}`, {
          cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
        });
      case "503":
        return new Response("upstream down", { status: 503 });
      case "garbage":
        return new Response("<html>captcha</html>", { status: 200 });
      case "rpc-error":
        return Response.json(
          batch.map(({ id }) => ({
            jsonrpc: "2.0",
            id,
            error: { code: -32005, message: "limit" },
          })),
        );
      case "hang":
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal;
          signal?.addEventListener("abort", () => reject(signal.reason));
        });
      case "ok":
        return Response.json(answerFactsBatch(batch, { chainId: 8453, nonce: 5n, ...state }));
    }
  });
}

describe("createChainReader", () => {
  it("sends the whole facts batch in one HTTP request and returns the parsed facts", async () => {
    const fetch = fakeFetch({});
    const reader = createChainReader({ rpcUrls: urls, fetch });
    const facts = await reader.read(alice, "base");
    expect(facts).toMatchObject({ status: "ok", kind: "eoa", outgoingTxs: 5 });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(first);
    expect(JSON.parse(String(init?.body))).toEqual(buildFactsBatch(alice, "base"));
    expect(reader.stats()).toMatchObject({ upstreamRequests: 1, perChain: { base: 1 } });
  });

  it.each<Behaviour>(["throw", "503", "garbage", "rpc-error"])(
    "falls back to the next endpoint when the first one answers with %s",
    async (behaviour) => {
      const fetch = fakeFetch({ "first.example": behaviour });
      const reader = createChainReader({ rpcUrls: urls, fetch });
      expect(await reader.read(alice, "base")).toMatchObject({ status: "ok", outgoingTxs: 5 });
      expect(fetch.mock.calls.map(([url]) => url)).toEqual([first, second]);
      expect(reader.stats().upstreamRequests).toBe(2);
    },
  );

  it("gives up on a silent endpoint after timeoutMs and uses the next one", async () => {
    const fetch = fakeFetch({ "first.example": "hang" });
    const reader = createChainReader({ rpcUrls: urls, fetch, timeoutMs: 50 });
    const started = performance.now();
    expect(await reader.read(alice, "base")).toMatchObject({ status: "ok" });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(1000);
  });

  it("returns unavailable with every endpoint's reason, null facts and no URL secrets", async () => {
    const fetch = fakeFetch({ "first.example": "hang", "second.example": "503" });
    const reader = createChainReader({ rpcUrls: urls, fetch, timeoutMs: 30 });
    const facts = await reader.read(alice, "base");
    expect(facts).toEqual({
      name: "base",
      chainId: 8453,
      status: "unavailable",
      error: expect.stringMatching(
        /^all RPC endpoints failed: endpoint 1: timeout after 30 ms; endpoint 2: HTTP 503$/,
      ),
      isContract: null,
      kind: null,
      kindLabel: null,
      outgoingTxs: null,
      native: null,
      usdc: null,
      usdt: null,
      usdcBridged: null,
      gas: null,
      blockNumber: null,
    });
    expect(facts.error).not.toContain("SECRET");
    expect(facts.error).not.toContain("example");
  });

  it("names JSON-RPC, garbage and network failures briefly", async () => {
    const fetch = fakeFetch({ "first.example": "rpc-error", "second.example": "garbage" });
    const reader = createChainReader({ rpcUrls: urls, fetch });
    expect((await reader.read(alice, "base")).error).toBe(
      "all RPC endpoints failed: endpoint 1: eth_getCode failed: -32005 limit; " +
        "endpoint 2: malformed response: not JSON",
    );
    const down = createChainReader({
      rpcUrls: urls,
      fetch: fakeFetch({ "first.example": "throw", "second.example": "throw" }),
    });
    const error = (await down.read(alice, "base")).error;
    expect(error).toMatch(/endpoint 1: network error \(ECONNREFUSED\)/);
    expect(error).not.toContain("SECRET");
  });

  it("names an endpoint it cannot parse by position too, never by its text", async () => {
    const reader = createChainReader({
      rpcUrls: { ...urls, base: ["not a url SECRET", second] },
      fetch: fakeFetch({ "second.example": "503" }),
    });
    const error = (await reader.read(alice, "base")).error;
    expect(error).toMatch(/^all RPC endpoints failed: endpoint 1: network error/);
    expect(error).not.toContain("SECRET");
  });

  it("answers unavailable without a request for a chain with no endpoint or a bad address", async () => {
    const fetch = fakeFetch({});
    const reader = createChainReader({ rpcUrls: urls, fetch });
    expect(await reader.read(alice, "polygon")).toMatchObject({
      name: "polygon",
      chainId: chains.polygon.id,
      status: "unavailable",
      error: "no RPC endpoint configured",
    });
    expect(await reader.read("0x123" as Address, "base")).toMatchObject({
      status: "unavailable",
      error: "invalid address",
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("starts at the endpoint that last worked, so a dead first endpoint costs one failure", async () => {
    const fetch = fakeFetch({ "first.example": "throw" });
    const reader = createChainReader({ rpcUrls: urls, fetch });
    await reader.read(alice, "base");
    await reader.read(bob, "base");
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([first, second, second]);
  });

  it("serves a repeated read from the cache within ttlMs and refetches after it", async () => {
    let clock = 1_000;
    const fetch = fakeFetch({});
    const reader = createChainReader({ rpcUrls: urls, fetch, ttlMs: 15_000, now: () => clock });
    await reader.read(alice, "base");
    clock += 14_999;
    // Same key whatever the case of the address.
    expect(await reader.read(getAddress(alice), "base")).toMatchObject({ status: "ok" });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(reader.stats().cacheHits).toBe(1);
    clock += 1;
    await reader.read(alice, "base");
    expect(fetch).toHaveBeenCalledTimes(2);
    await reader.read(alice, "ethereum");
    await reader.read(bob, "base");
    expect(reader.stats()).toMatchObject({ cacheHits: 1, upstreamRequests: 3 });
  });

  it("hands out copies, so a caller cannot change what the cache serves next", async () => {
    const reader = createChainReader({ rpcUrls: urls, fetch: fakeFetch({}) });
    const facts = await reader.read(alice, "base");
    facts.outgoingTxs = 999;
    expect((await reader.read(alice, "base")).outgoingTxs).toBe(5);
  });

  it("does not cache an unavailable result unless failureTtlMs asks for it", async () => {
    const behaviours: Record<string, Behaviour> = {
      "first.example": "503",
      "second.example": "503",
    };
    const fetch = fakeFetch(behaviours);
    const reader = createChainReader({ rpcUrls: urls, fetch });
    expect((await reader.read(alice, "base")).status).toBe("unavailable");
    behaviours["second.example"] = "ok";
    expect((await reader.read(alice, "base")).status).toBe("ok");

    const briefly = createChainReader({
      rpcUrls: urls,
      fetch: fakeFetch({ "first.example": "503", "second.example": "503" }),
      failureTtlMs: 2_000,
    });
    await briefly.read(alice, "base");
    await briefly.read(alice, "base");
    expect(briefly.stats()).toMatchObject({ upstreamRequests: 2, cacheHits: 1 });
  });

  it("coalesces 10 concurrent reads of one key into one upstream request", async () => {
    const fetch = fakeFetch({});
    const reader = createChainReader({ rpcUrls: urls, fetch });
    const reads = Array.from({ length: 10 }, (_, i) =>
      reader.read(i % 2 ? alice : getAddress(alice), "base"),
    );
    const results = await Promise.all(reads);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Set(results.map((facts) => JSON.stringify(facts))).size).toBe(1);
    expect(reader.stats()).toMatchObject({ upstreamRequests: 1, coalesced: 9, cacheHits: 0 });
  });

  it("clear() empties the cache, and a read in flight during clear() is not cached", async () => {
    const fetch = fakeFetch({});
    const reader = createChainReader({ rpcUrls: urls, fetch });
    await reader.read(alice, "base");
    reader.clear();
    const inFlight = reader.read(alice, "base");
    reader.clear();
    await inFlight;
    await reader.read(alice, "base");
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("classifies an EIP-7702 delegation read through the whole path", async () => {
    const delegate = "0x63c0c19a282a1b52b07dd5a65b58948a07dae32b";
    const fetch = fakeFetch({}, { code: `0xef0100${delegate.slice(2)}` });
    const facts = await createChainReader({ rpcUrls: urls, fetch }).read(alice, "base");
    expect(facts).toMatchObject({
      isContract: false,
      kind: "eip7702-delegated",
      delegate: getAddress(delegate),
    });
  });

  describe("with a companion (the history's entries in the same batch)", () => {
    const logs = { jsonrpc: "2.0" as const, id: 103, method: "eth_getLogs", params: [] };
    function companion() {
      const outcomes: CompanionOutcome[] = [];
      return {
        outcomes,
        companion: {
          entries: () => [logs],
          maxResponseBytes: 1_000,
          settle: (outcome: CompanionOutcome) => outcomes.push(outcome),
        },
      };
    }
    /** Answers the facts from the fake chain, and the companion's entry with `answer`. */
    const withLogs = (answer: (id: number) => unknown) =>
      vi.fn<typeof fetch>(async (_, init) => {
        const batch = JSON.parse(String(init?.body)) as JsonRpcRequest[];
        const facts = batch.filter((entry) => entry.id < 100);
        const extra = batch.filter((entry) => entry.id >= 100).map((entry) => answer(entry.id));
        return Response.json([...answerFactsBatch(facts, { chainId: 8453, nonce: 5n }), ...extra]);
      });

    it("sends them in the facts' one request and hands over their answers with the facts", async () => {
      const fetch = withLogs((id) => ({ jsonrpc: "2.0", id, result: [] }));
      const { outcomes, companion: given } = companion();
      const facts = await createChainReader({ rpcUrls: urls, fetch }).read(alice, "base", {
        companion: given,
      });
      expect(facts).toMatchObject({ status: "ok", outgoingTxs: 5 });
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toHaveLength(8);
      expect(outcomes).toEqual([
        { type: "answered", answers: [{ jsonrpc: "2.0", id: 103, result: [] }], facts },
      ]);
    });

    it("a refused entry of theirs never fails the facts", async () => {
      const refused = (id: number) => ({
        jsonrpc: "2.0",
        id,
        error: { code: -32005, message: "range" },
      });
      const { outcomes, companion: given } = companion();
      const facts = await createChainReader({ rpcUrls: urls, fetch: withLogs(refused) }).read(
        alice,
        "base",
        { companion: given },
      );
      expect(facts.status).toBe("ok");
      expect(outcomes[0]).toMatchObject({ type: "answered", answers: [refused(103)] });
    });

    it("their part over their bound: they are told so, the facts stand", async () => {
      const fetch = withLogs((id) => ({ jsonrpc: "2.0", id, result: ["x".repeat(5_000)] }));
      const { outcomes, companion: given } = companion();
      const facts = await createChainReader({ rpcUrls: urls, fetch }).read(alice, "base", {
        companion: given,
      });
      expect(facts.status).toBe("ok");
      expect(outcomes).toEqual([
        { type: "failed", error: "response larger than 1000 bytes, aborted" },
      ]);
    });

    it("a batch the endpoint refuses whole: the facts asked again alone there, the companion reads alone", async () => {
      const refusing = vi.fn<typeof fetch>(async (_, init) => {
        const batch = JSON.parse(String(init?.body)) as JsonRpcRequest[];
        if (batch.length > 7) {
          return Response.json({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32600, message: "too big" },
          });
        }
        return Response.json(answerFactsBatch(batch, { chainId: 8453, nonce: 5n }));
      });
      const { outcomes, companion: given } = companion();
      const reader = createChainReader({ rpcUrls: urls, fetch: refusing });
      const facts = await reader.read(alice, "base", { companion: given });
      expect(facts.status).toBe("ok");
      expect(refusing.mock.calls.map(([url]) => url)).toEqual([first, first]);
      expect(outcomes).toEqual([{ type: "alone" }]);
    });

    it("facts from the cache: the companion is not sent and reads alone", async () => {
      const fetch = fakeFetch({});
      const reader = createChainReader({ rpcUrls: urls, fetch });
      await reader.read(alice, "base");
      const { outcomes, companion: given } = companion();
      expect((await reader.read(alice, "base", { companion: given })).status).toBe("ok");
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(outcomes).toEqual([{ type: "alone" }]);
    });
  });
});

describe("createChainReader: reads pinned to one block", () => {
  const single = { ...urls, base: [first] };
  const isBlockNumber = (param: unknown): param is string =>
    typeof param === "string" && /^0x[0-9a-f]+$/i.test(param) && param.length < 20;
  /** A fetch answering as a node at `head`: a block past it is "header not found". */
  function nodeAt(head: () => bigint) {
    return vi.fn<typeof fetch>(async (_, init) => {
      const batch = JSON.parse(String(init?.body)) as JsonRpcRequest[];
      const tooHigh = (entry: JsonRpcRequest) =>
        entry.params.some((param) => isBlockNumber(param) && BigInt(param) > head());
      return Response.json(
        batch.map((entry) =>
          tooHigh(entry)
            ? { jsonrpc: "2.0", id: entry.id, error: { code: -32000, message: "header not found" } }
            : answerFactsBatch([entry], { chainId: 8453, nonce: 5n, blockNumber: head() })[0],
        ),
      );
    });
  }
  const blocksAsked = (fetch: ReturnType<typeof nodeAt>, call: number) =>
    (JSON.parse(String(fetch.mock.calls[call]?.[1]?.body)) as JsonRpcRequest[]).map((entry) =>
      entry.params.at(-1),
    );

  it("the first read at the node's head, the next at the head it gave, in every entry", async () => {
    const fetch = nodeAt(() => 1234n);
    const reader = createChainReader({ rpcUrls: single, fetch, ttlMs: 0 });
    expect(await reader.read(alice, "base")).toMatchObject({ status: "ok", blockNumber: "1234" });
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual(
      buildFactsBatch(alice, "base"),
    );
    await reader.read(bob, "base");
    expect(JSON.parse(String(fetch.mock.calls[1]?.[1]?.body))).toEqual(
      buildFactsBatch(bob, "base", { block: 1234n }),
    );
    // eth_getCode, nonce, aggregate3, storage slot, delegate probe, simulation: all at 1234.
    expect(blocksAsked(fetch, 1).filter((block) => block === "0x4d2")).toHaveLength(6);
  });

  it("a node that has not reached the pinned block: asked once more at its head, which is learned", async () => {
    let head = 2000n;
    const fetch = nodeAt(() => head);
    const reader = createChainReader({ rpcUrls: single, fetch, ttlMs: 0 });
    await reader.read(alice, "base");
    head = 1990n; // the next request meets a node behind, or the chain after a reorg
    expect(await reader.read(alice, "base")).toMatchObject({ status: "ok", blockNumber: "1990" });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(blocksAsked(fetch, 2)).toContain("latest");
    await reader.read(alice, "base");
    expect(blocksAsked(fetch, 3)).toContain("0x7c6");
  });

  it("a head older than the pin window is not pinned to", async () => {
    let clock = 0;
    const fetch = nodeAt(() => 50n);
    const reader = createChainReader({
      rpcUrls: single,
      fetch,
      ttlMs: 0,
      pinWithinMs: 1_000,
      now: () => clock,
    });
    await reader.read(alice, "base");
    clock = 1_001;
    await reader.read(alice, "base");
    expect(blocksAsked(fetch, 1)).toContain("latest");
  });
});
