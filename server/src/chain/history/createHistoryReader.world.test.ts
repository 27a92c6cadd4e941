import {
  demoAddressListFile,
  devnetAccounts,
  senderWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../engine/createEngine";
import { loadAddressLists } from "../../lists/loadAddressLists";
import { type FaultyRpc, startFaultyRpc } from "../../payments/testing/startFaultyRpc";
import { maxBatchEntries } from "../buildFactsBatch";
import { createChainReader } from "../createChainReader";
import { buildHistoryBatch } from "./buildHistoryBatch";
import { createHistoryReader } from "./createHistoryReader";

const { poisoningVictim, genuineCounterparty, sprayedPoisoner } = devnetAccounts;

// Real anvil chains, history made of real transfers and real zero-value transferFrom calls (the
// run's shared world, read only); faults come from a proxy in front of the real base chain.
describe("history reader (real anvil, real transfers)", () => {
  let world: World;
  let rpcUrls: Record<ChainName, string[]>;
  let faulty: FaultyRpc;

  beforeAll(async () => {
    world = sharedWorld();
    rpcUrls = worldRpcUrls(world);
    faulty = await startFaultyRpc(world.chains.base.rpcUrl);
  });
  afterAll(async () => {
    await faulty?.close();
  });

  it("reads the sender's payments, the genuine lookalike and the planted zero-value transfer", async () => {
    const history = await createHistoryReader({ rpcUrls }).read({
      address: senderWorld.freshLookalike,
      from: poisoningVictim.address,
      chain: "base",
    });
    expect(history.status).toBe("read");
    expect(history.tokens).toEqual(["USDC", "USDT", "USDbC"]);
    expect(history.native).toMatchObject({ status: "read" });
    expect(history.sender).toMatchObject({
      address: poisoningVictim.address,
      paidRecipient: null,
      zeroValueToRecipient: 1,
      lookalikes: [{ address: genuineCounterparty.address, payments: senderWorld.genuinePayments }],
    });
    // The endpoint gives block times with logs (anvil does): the date is known.
    expect(history.sender?.lookalikes[0]?.lastPaidAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("the sprayed address's fingerprint: zero-value transfers from five unrelated addresses", async () => {
    const history = await createHistoryReader({ rpcUrls }).read({
      address: sprayedPoisoner.address,
      from: null,
      chain: "base",
    });
    expect(history.recipient).toMatchObject({ zeroValueTransfers: 5, zeroOrDustCounterparties: 5 });
    expect(history.native).toEqual({ status: "not_asked" });
  });

  it("one request per chain once the head is known, a batch of at most 10 entries", async () => {
    const reader = createHistoryReader({ rpcUrls, ttlMs: 0 });
    const input = {
      address: genuineCounterparty.address,
      from: poisoningVictim.address,
      chain: "base" as const,
    };
    await reader.read(input);
    const before = reader.stats().perChain.base;
    await reader.read(input);
    expect(reader.stats().perChain.base - before).toBe(1);
    expect(buildHistoryBatch({ ...input, fromBlock: 0n }).length).toBeLessThanOrEqual(
      maxBatchEntries,
    );
  });

  it.each([
    ["refuseLogRange", "block range or result cap, code -32005"],
    ["capLogs", "block range or result cap, code -32005"],
  ] as const)(
    "%s: history unknown, the check with from is caution, never ok",
    async (mode, why) => {
      faulty.mode = mode;
      const history = createHistoryReader({ rpcUrls: { ...rpcUrls, base: [faulty.url] } });
      const engine = createEngine({ reader: createChainReader({ rpcUrls }), history });
      // The genuine counterparty is ok on its own facts; unread history must not leave it ok.
      const result = await engine.check({
        address: genuineCounterparty.address,
        chain: "base",
        from: poisoningVictim.address,
      });
      if (result.type !== "report") throw new Error("chain unreadable");
      expect(result.report.chain.history).toMatchObject({ status: "unknown" });
      expect(result.report.chain.history?.error).toContain(why);
      expect(result.report.verdict.level).toBe("caution");
      expect(result.report.verdict.reasons[0]?.code).toBe("history_unknown");
      // Without from the fingerprint is named as unread, and not having read it is never ok.
      const plain = await engine.check({ address: genuineCounterparty.address, chain: "base" });
      if (plain.type !== "report") throw new Error("chain unreadable");
      expect(plain.report.verdict.reasons[0]?.code).toBe("history_unread");
      expect(plain.report.verdict.level).toBe("caution");
      faulty.mode = "pass";
    },
  );

  it("an endpoint without ots_: native sends named as not read, token history still decides", async () => {
    faulty.mode = "noOtterscan";
    const engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls: { ...rpcUrls, base: [faulty.url] } }),
    });
    const fresh = await engine.check({
      address: senderWorld.freshLookalike,
      chain: "base",
      from: poisoningVictim.address,
    });
    const stranger = await engine.check({
      address: sprayedPoisoner.address,
      chain: "base",
      from: poisoningVictim.address,
    });
    faulty.mode = "pass";
    if (fresh.type !== "report" || stranger.type !== "report") throw new Error("chain unreadable");
    expect(fresh.report.chain.history?.native).toEqual({
      status: "unknown",
      error: "the endpoint has no Otterscan ots_ methods",
    });
    expect(fresh.report.verdict.level).toBe("danger");
    const firstTime = stranger.report.verdict.reasons.find(
      (reason) => reason.code === "first_time_recipient",
    );
    expect(firstTime?.message).toContain(
      "native ETH sends were not read (the endpoint has no Otterscan ots_ methods)",
    );
    expect(stranger.report.report).toContain("native sends not read");
  });

  it("the poisoning report names the genuine address, how often it was paid, and the rule", async () => {
    // The history rides in each chain's facts batch (same endpoints, heads read first).
    const history = createHistoryReader({ rpcUrls, factsRpcUrls: rpcUrls });
    await history.prime();
    const engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history,
      lists: await loadAddressLists({ files: [demoAddressListFile], watch: false }),
    });
    const result = await engine.deep({
      address: senderWorld.activeLookalike,
      chain: "base",
      from: poisoningVictim.address,
    });
    if (result.type !== "report") throw new Error("chain unreadable");
    const [deciding] = result.report.verdict.reasons;
    expect(deciding).toMatchObject({ code: "address_poisoning", level: "danger", chain: "base" });
    expect(deciding?.message).toContain(genuineCounterparty.address);
    expect(deciding?.message).toContain(`${senderWorld.genuinePayments} times`);
    expect(deciding?.message).toContain("first 4 and last 4 hex characters");
    expect(result.report.lists?.consulted).toEqual([
      { source: "presend demo world", licence: "CC0-1.0", date: "2026-11-24", entries: 2 },
    ]);
    // Every chain of the deep check had its history read.
    for (const facts of [result.report.chain, ...result.report.others]) {
      expect(facts.history?.status).toBe("read");
    }
  });
});

// The default: no HISTORY_RPC_URLS_<CHAIN>, so the history's queries ride in the facts batch.
describe("history riding in the facts batch (real anvil, one HTTP request per chain)", () => {
  let world: World;
  let rpcUrls: Record<ChainName, string[]>;
  let faulty: FaultyRpc;
  let bodies: string[] = [];
  // Every request the readers send, counted and kept (the batch entries are printed).
  const counting: typeof fetch = (input, init) => {
    if (typeof init?.body === "string") bodies.push(init.body);
    return fetch(input, init);
  };

  beforeAll(async () => {
    world = sharedWorld();
    faulty = await startFaultyRpc(world.chains.base.rpcUrl);
    rpcUrls = {
      ...worldRpcUrls(world),
      base: [faulty.url],
    };
  });
  afterAll(async () => {
    await faulty?.close();
  });

  async function riding(options: { historyBytes?: number; separateHistory?: string } = {}) {
    const history = createHistoryReader({
      rpcUrls: options.separateHistory ? { ...rpcUrls, base: [options.separateHistory] } : rpcUrls,
      factsRpcUrls: rpcUrls,
      ttlMs: 0,
      fetch: counting,
      ...(options.historyBytes && { maxResponseBytes: options.historyBytes }),
    });
    await history.prime();
    const reader = createChainReader({ rpcUrls, ttlMs: 0, fetch: counting });
    bodies = [];
    return createEngine({ reader, history });
  }
  const input = {
    address: genuineCounterparty.address,
    chain: "base" as const,
    from: poisoningVictim.address,
  };

  it("a check with from is one HTTP request per chain: a batch of at most 10 entries", async () => {
    faulty.mode = "pass";
    const engine = await riding();
    const result = await engine.check(input);
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.chain).toMatchObject({ kind: "eoa", history: { status: "read" } });
    expect(result.report.chain.history?.sender?.paidRecipient?.payments).toBe(
      senderWorld.genuinePayments,
    );
    expect(bodies).toHaveLength(1);
    const entries = JSON.parse(bodies[0] as string) as { id: number; method: string }[];
    console.log(
      "check with from, the one batch:",
      entries.map((entry) => `${entry.id} ${entry.method}`),
    );
    expect(entries.length).toBeLessThanOrEqual(maxBatchEntries);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(entries.map((entry) => entry.method)).toEqual(
      expect.arrayContaining(["eth_getLogs", "ots_searchTransactionsBefore", "eth_simulateV1"]),
    );
    // A deep check: one request on each of the five chains.
    bodies = [];
    await engine.deep(input);
    expect(bodies).toHaveLength(chainNames.length);
  });

  it.each([
    ["refuseLogRange", "block range or result cap, code -32005"],
    ["capLogs", "block range or result cap, code -32005"],
  ] as const)(
    "%s in the shared batch: the facts stand, the history is unknown, still one request",
    async (mode, why) => {
      faulty.mode = mode;
      const engine = await riding();
      const result = await engine.check(input);
      faulty.mode = "pass";
      if (result.type !== "report") throw new Error("a refused log range failed the facts");
      expect(result.report.chain).toMatchObject({ status: "ok", kind: "eoa", outgoingTxs: 1 });
      expect(result.report.chain.history).toMatchObject({ status: "unknown" });
      expect(result.report.chain.history?.error).toContain(why);
      expect(result.report.verdict.reasons[0]?.code).toBe("history_unknown");
      expect(bodies).toHaveLength(1);
    },
  );

  it("no ots_ in the shared batch: only the native sends are unknown", async () => {
    faulty.mode = "noOtterscan";
    const engine = await riding();
    const result = await engine.check(input);
    faulty.mode = "pass";
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.chain.history).toMatchObject({
      status: "read",
      native: { status: "unknown", error: "the endpoint has no Otterscan ots_ methods" },
    });
    expect(bodies).toHaveLength(1);
  });

  it("a history answer over its own bound: history unknown, the facts read all the same", async () => {
    faulty.mode = "pass";
    const engine = await riding({ historyBytes: 200 });
    const result = await engine.check(input);
    if (result.type !== "report") throw new Error("an oversized history failed the facts");
    expect(result.report.chain).toMatchObject({ status: "ok", kind: "eoa" });
    expect(result.report.chain.history).toMatchObject({ status: "unknown" });
    expect(result.report.chain.history?.error).toContain("response larger than 200 bytes");
  });

  it("a history endpoint of its own (HISTORY_RPC_URLS_<CHAIN>): two requests, in parallel", async () => {
    faulty.mode = "pass";
    const engine = await riding({ separateHistory: world.chains.base.rpcUrl });
    const result = await engine.check(input);
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.chain.history?.status).toBe("read");
    expect(bodies).toHaveLength(2);
  });
});
