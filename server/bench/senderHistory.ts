import {
  artifacts,
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  type World,
} from "@presend/devnet";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { type Address, getAddress, keccak256, parseEther, stringToHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { buildFactsBatch } from "../src/chain/buildFactsBatch";
import { createChainReader } from "../src/chain/createChainReader";
import { buildHistoryBatch, buildHistoryCompanion } from "../src/chain/history/buildHistoryBatch";
import { createHistoryReader } from "../src/chain/history/createHistoryReader";
import { createEngine } from "../src/engine/createEngine";
import { type CountingProxy, startCountingProxy } from "./countingProxy";
import { percentile, timeInterleaved } from "./percentiles";

type Quantiles = { p50: number; p95: number };
const quantiles = (values: number[]): Quantiles => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
});
const ratio = (a: Quantiles, b: Quantiles): Quantiles => ({
  p50: a.p50 / b.p50,
  p95: a.p95 / b.p95,
});

export type SenderHistoryBench = {
  /** Upstream HTTP requests per chain for a check with from (the history rides in the facts batch). */
  requestsPerCheckWithFrom: number;
  /** The one batch a check with from sends, as `id method` (facts, then the history's entries). */
  batchEntries: string[];
  /** With a history endpoint of its own: requests per chain (two, in parallel). */
  requestsWithSeparateHistory: number;
  /** Behind a public RPC's shape (30 ms, answers replayed): check with from vs one raw round trip. */
  remote: { delayMs: number; rawMs: Quantiles; checkMs: Quantiles; checkVsRaw: Quantiles };
  /** A sender with `transfers` real transfers in the window. */
  heavy: {
    transfers: number;
    seedMs: number;
    rawLogsMs: Quantiles;
    /** One raw round trip of the whole history batch (two log queries and the ots_ search). */
    rawBatchMs: Quantiles;
    checkMs: Quantiles;
    checkVsRawLogs: Quantiles;
    /** Bytes of the history answer (what the server reads) and of the report (what it sends). */
    historyAnswerBytes: number;
    reportBytes: number;
  };
};

const publicRpcDelayMs = 30;

async function proxies(world: World, options: { delayMs?: number; replay?: boolean } = {}) {
  const started = await Promise.all(
    chainNames.map((name) => startCountingProxy(world.chains[name].rpcUrl, options)),
  );
  const rpcUrls = Object.fromEntries(
    chainNames.map((name, index) => [name, [(started[index] as CountingProxy).url]]),
  ) as Record<ChainName, string[]>;
  return {
    rpcUrls,
    base: started[0] as CountingProxy,
    close: () => Promise.all(started.map((proxy) => proxy.close())),
  };
}

/** Sends `count` real USDC transfers from a new sender to 100 counterparties, nonces in a row. */
async function seedHeavySender(world: World, count: number): Promise<Address> {
  const client = devnetClient("base", world.chains.base.rpcUrl);
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  const sender = privateKeyToAccount(keccak256(stringToHex("presend bench: heavy sender")));
  await client.confirm(
    client.sendTransaction({ account: faucet, to: sender.address, value: parseEther("10") }),
  );
  await mintStablecoin(client, {
    token: chains.base.usdc.address,
    minter: faucet,
    to: sender.address,
    amount: BigInt(count) * 1_000_000n,
  });
  const nonce = await client.getTransactionCount({ address: sender.address });
  let last: `0x${string}` = "0x";
  for (let index = 0; index < count; index++) {
    const to = getAddress(
      `0x${keccak256(stringToHex(`bench counterparty ${index % 100}`)).slice(-40)}`,
    );
    last = await client.writeContract({
      account: sender,
      address: chains.base.usdc.address,
      abi: artifacts.PresendStablecoin.abi,
      functionName: "transfer",
      args: [to, 1_000_000n],
      nonce: nonce + index,
      gas: 80_000n,
    });
  }
  await client.confirm(last);
  return sender.address;
}

/**
 * The sender-history figures: requests and batch entries per chain with from, a check with from
 * against one raw round trip of the same requests behind a public RPC's shape, and a sender with
 * 1,000 real transfers against one raw eth_getLogs of the same filter.
 */
export async function benchSenderHistory(
  world: World,
  options: { samples: number; transfers: number },
): Promise<SenderHistoryBench> {
  const rows = world.demo.filter((demo) => demo.withFrom && demo.chain === "base");
  const from = rows[0]?.withFrom?.from as Address;
  const pick = (index: number) => rows[index % rows.length]?.address as Address;
  // As composeServer builds them: the history rides in the facts batch on the same endpoints.
  const makeEngine = (
    rpcUrls: Record<ChainName, string[]>,
    historyRpcUrls: Record<ChainName, string[]> = rpcUrls,
    fetchFn: typeof fetch = fetch,
  ) =>
    createEngine({
      reader: createChainReader({ rpcUrls, ttlMs: 0, fetch: fetchFn }),
      history: createHistoryReader({
        rpcUrls: historyRpcUrls,
        factsRpcUrls: rpcUrls,
        ttlMs: 0,
        fetch: fetchFn,
      }),
    });
  // The one batch as sent: facts, then the history's entries (the head known, as after start).
  const oneBatch = (index: number) => [
    ...buildFactsBatch(pick(index), "base", { sender: from }),
    ...buildHistoryCompanion({ address: pick(index), from, chain: "base", fromBlock: 0n }),
  ];

  // Requests on the wire, after one check has learnt the head.
  const counted = await proxies(world);
  let requestsPerCheckWithFrom: number;
  let requestsWithSeparateHistory: number;
  let batchEntries: string[] = [];
  try {
    let lastBody = "";
    const recording: typeof fetch = (input, init) => {
      if (typeof init?.body === "string") lastBody = init.body;
      return fetch(input, init);
    };
    const perCheck = async (
      engine: ReturnType<typeof makeEngine>,
      requests: () => number = counted.base.count,
    ) => {
      await engine.check({ address: pick(0), chain: "base", from });
      const before = requests();
      const runs = 30;
      for (let index = 0; index < runs; index++) {
        await engine.check({ address: pick(index), chain: "base", from });
      }
      return (requests() - before) / runs;
    };
    requestsPerCheckWithFrom = await perCheck(
      makeEngine(counted.rpcUrls, counted.rpcUrls, recording),
    );
    batchEntries = (JSON.parse(lastBody) as { id: number; method: string }[]).map(
      (entry) => `${entry.id} ${entry.method}`,
    );
    // HISTORY_RPC_URLS_BASE naming another endpoint (here: the same chain behind another proxy).
    const historyProxy = await startCountingProxy(world.chains.base.rpcUrl);
    try {
      const separate = { ...counted.rpcUrls, base: [historyProxy.url] };
      requestsWithSeparateHistory = await perCheck(
        makeEngine(counted.rpcUrls, separate),
        () => counted.base.count() + historyProxy.count(),
      );
    } finally {
      await historyProxy.close();
    }
  } finally {
    await counted.close();
  }

  // A public RPC's shape: 30 ms per round trip, the anvils' answers recorded once and replayed.
  const remoteProxies = await proxies(world, { delayMs: publicRpcDelayMs, replay: true });
  let remote: SenderHistoryBench["remote"];
  try {
    const url = remoteProxies.rpcUrls.base[0] as string;
    const engine = makeEngine(remoteProxies.rpcUrls);
    const post = async (body: unknown) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      });
      await response.json();
    };
    const runs = {
      // The same one batch the check sends, raw: one round trip.
      raw: (index: number) => post(oneBatch(index)),
      check: (index: number) => engine.check({ address: pick(index), chain: "base", from }),
    };
    for (let index = 0; index < rows.length; index++) {
      await runs.raw(index);
      await runs.check(index);
    }
    const times = await timeInterleaved(runs, { count: options.samples });
    const rawMs = quantiles(times.raw);
    const checkMs = quantiles(times.check);
    remote = { delayMs: publicRpcDelayMs, rawMs, checkMs, checkVsRaw: ratio(checkMs, rawMs) };
  } finally {
    await remoteProxies.close();
  }

  // A sender with many real transfers, straight against the local base anvil.
  const seedStarted = performance.now();
  const heavy = await seedHeavySender(world, options.transfers);
  const seedMs = performance.now() - seedStarted;
  const direct = Object.fromEntries(
    chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
  ) as Record<ChainName, string[]>;
  let historyAnswerBytes = 0;
  const measuringFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.text();
    if (typeof init?.body === "string" && init.body.includes("eth_getLogs")) {
      historyAnswerBytes = Buffer.byteLength(text);
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const engine = makeEngine(direct, direct, measuringFetch);
  const target = pick(0);
  const historyBatch = buildHistoryBatch({
    address: target,
    from: heavy,
    chain: "base",
    fromBlock: 0n,
  });
  // The query for the sender's transfers alone: the one a wallet's own history view would send.
  const logsFilter = historyBatch[2];
  let reportBytes = 0;
  const runs = {
    rawLogs: async () => {
      const response = await fetch(world.chains.base.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(logsFilter),
      });
      await response.json();
    },
    rawBatch: async () => {
      const response = await fetch(world.chains.base.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(historyBatch),
      });
      await response.json();
    },
    check: async () => {
      const result = await engine.check({ address: target, chain: "base", from: heavy });
      if (result.type === "report") reportBytes = Buffer.byteLength(JSON.stringify(result.report));
    },
  };
  const times = await timeInterleaved(runs, {
    count: Math.max(10, Math.floor(options.samples / 2)),
  });
  const rawLogsMs = quantiles(times.rawLogs);
  const rawBatchMs = quantiles(times.rawBatch);
  const checkMs = quantiles(times.check);
  return {
    requestsPerCheckWithFrom,
    batchEntries,
    requestsWithSeparateHistory,
    remote,
    heavy: {
      transfers: options.transfers,
      seedMs,
      rawLogsMs,
      rawBatchMs,
      checkMs,
      checkVsRawLogs: ratio(checkMs, rawLogsMs),
      historyAnswerBytes,
      reportBytes,
    },
  };
}
