import type { World } from "@presend/devnet";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import { buildFactsBatch } from "../src/chain/buildFactsBatch";
import { createChainReader } from "../src/chain/createChainReader";
import { buildHistoryCompanion } from "../src/chain/history/buildHistoryBatch";
import { createHistoryReader } from "../src/chain/history/createHistoryReader";
import { createEngine } from "../src/engine/createEngine";
import { proxyEachChain, publicRpcDelayMs } from "./countingProxy";
import { percentile, timeInterleaved } from "./percentiles";

export type Quantiles = { p50: number; p95: number };

/** One scenario's latencies and the ratios the goals are stated in. */
export type LatencyFigures = {
  /** One raw fetch of the one batch for base, facts and history (built, sent, answer parsed). */
  rawMs: Quantiles;
  checkMs: Quantiles;
  deepMs: Quantiles;
  /** The five chains' raw fetches in parallel: the floor for deep. */
  rawFiveMs: Quantiles;
  checkVsRaw: Quantiles;
  deepVsCheck: Quantiles;
  /** Deep's floor in check's terms: five raw in parallel / one raw. */
  rawFiveVsRaw: Quantiles;
  /** What deep adds to its floor: deep / five raw in parallel. */
  deepVsRawFive: Quantiles;
};

export type EngineBench = {
  batchEntries: number;
  requestsPerCheck: number;
  requestsPerDeep: number;
  /** Straight against the local anvils. */
  local: LatencyFigures;
  /** Through proxies holding every upstream round trip `delayMs`, forwarding to the anvils. */
  behindLatency: LatencyFigures & { delayMs: number };
  /**
   * Through the same delay, the anvils' answers recorded once and replayed: a remote public RPC,
   * whose work does not run on the two cores the engine and its baseline run on.
   */
  behindRemoteRpc: LatencyFigures & { delayMs: number };
};

const quantiles = (values: number[]): Quantiles => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
});
const ratio = (a: Quantiles, b: Quantiles): Quantiles => ({
  p50: a.p50 / b.p50,
  p95: a.p95 / b.p95,
});

/**
 * Raw fetches, check and deep on one set of endpoints, one run of each in turn per sample, so
 * machine noise (six workers share two cores) lands on all four alike.
 */
async function measureLatency(
  rpcUrls: Record<ChainName, string[]>,
  options: { samples: number; pick: (index: number) => Address; warmUpRuns?: number },
): Promise<LatencyFigures> {
  const engine = await productionEngine(rpcUrls);
  const rawFetch = async (chain: ChainName, index: number) => {
    const response = await fetch(rpcUrls[chain][0] as string, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(oneBatch(options.pick(index), chain)),
    });
    await response.json();
  };
  const runs = {
    raw: (index: number) => rawFetch("base", index),
    check: (index: number) => engine.check({ address: options.pick(index), chain: "base" }),
    deep: (index: number) => engine.deep({ address: options.pick(index), chain: "base" }),
    rawFive: (index: number) => Promise.all(chainNames.map((chain) => rawFetch(chain, index))),
  };
  // Untimed: every question asked once, so replaying proxies answer all timed ones from memory.
  for (let index = 0; index < (options.warmUpRuns ?? 0); index++) {
    for (const run of Object.values(runs)) await run(index);
  }
  const times = await timeInterleaved(runs, { count: options.samples });
  const rawMs = quantiles(times.raw);
  const checkMs = quantiles(times.check);
  const deepMs = quantiles(times.deep);
  const rawFiveMs = quantiles(times.rawFive);
  return {
    rawMs,
    checkMs,
    deepMs,
    rawFiveMs,
    checkVsRaw: ratio(checkMs, rawMs),
    deepVsCheck: ratio(deepMs, checkMs),
    rawFiveVsRaw: ratio(rawFiveMs, rawMs),
    deepVsRawFive: ratio(deepMs, rawFiveMs),
  };
}

/**
 * The engine as composeServer builds it without HISTORY_RPC_URLS: the history's queries ride in
 * the facts batch, heads read at start. No cache: every check must go upstream, or the figures
 * would measure a Map lookup.
 */
async function productionEngine(rpcUrls: Record<ChainName, string[]>) {
  const history = createHistoryReader({ rpcUrls, factsRpcUrls: rpcUrls, ttlMs: 0 });
  await history.prime();
  return createEngine({ reader: createChainReader({ rpcUrls, ttlMs: 0 }), history });
}

/** The one batch a check sends on `chain`: the facts, then the history's log queries. */
function oneBatch(address: Address, chain: ChainName) {
  return [
    ...buildFactsBatch(address, chain),
    ...buildHistoryCompanion({ address, from: null, chain, fromBlock: 0n }),
  ];
}

/**
 * Engine figures on the local world: the batch size, upstream requests per check and per deep
 * (counted at proxies), and latency against raw fetches of the same batch, straight against the
 * local anvils and behind proxies adding 30 ms to every round trip.
 */
export async function benchEngine(
  world: World,
  options: { samples: number },
): Promise<EngineBench> {
  const addresses = world.demo.map((demo) => demo.address);
  const pick = (index: number) => addresses[index % addresses.length] as Address;

  const counted = await proxyEachChain(world);
  let requestsPerCheck: number;
  let requestsPerDeep: number;
  try {
    const engine = await productionEngine(counted.rpcUrls);
    const checkRuns = 50;
    const beforeChecks = counted.requests();
    for (let index = 0; index < checkRuns; index++) {
      await engine.check({ address: pick(index), chain: "base" });
    }
    requestsPerCheck = (counted.requests() - beforeChecks) / checkRuns;
    const deepRuns = 10;
    const beforeDeep = counted.requests();
    for (let index = 0; index < deepRuns; index++) {
      await engine.deep({ address: pick(index), chain: "base" });
    }
    requestsPerDeep = (counted.requests() - beforeDeep) / deepRuns;
  } finally {
    await counted.close();
  }

  // Timed straight against anvil: a proxy lives in this process and would tax every figure
  // with its own work.
  const directUrls = Object.fromEntries(
    chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
  ) as Record<ChainName, string[]>;
  const local = await measureLatency(directUrls, { samples: options.samples, pick });

  // Each sample waits out the delay four times over; fewer of them tell as much.
  const delayedSamples = Math.max(20, Math.floor(options.samples / 2));
  const delayed = await proxyEachChain(world, { delayMs: publicRpcDelayMs });
  let behindLatency: LatencyFigures;
  try {
    behindLatency = await measureLatency(delayed.rpcUrls, { samples: delayedSamples, pick });
  } finally {
    await delayed.close();
  }
  const remote = await proxyEachChain(world, { delayMs: publicRpcDelayMs, replay: true });
  try {
    const behindRemoteRpc = await measureLatency(remote.rpcUrls, {
      samples: delayedSamples,
      pick,
      warmUpRuns: addresses.length,
    });
    return {
      batchEntries: oneBatch(pick(0), "base").length,
      requestsPerCheck,
      requestsPerDeep,
      local,
      behindLatency: { ...behindLatency, delayMs: publicRpcDelayMs },
      behindRemoteRpc: { ...behindRemoteRpc, delayMs: publicRpcDelayMs },
    };
  } finally {
    await remote.close();
  }
}
