import type { World } from "@presend/devnet";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import { buildFactsBatch } from "../src/chain/buildFactsBatch";
import { createChainReader } from "../src/chain/createChainReader";
import { createEngine } from "../src/engine/createEngine";
import { startCountingProxy } from "./countingProxy";
import { percentile, timeRuns } from "./percentiles";

const publicRpcDelayMs = 30;

/**
 * Check and deep through proxies that add 30 ms to every upstream round trip, against one raw
 * round trip of the same batch through the same proxy.
 */
async function timeBehindLatency(
  world: World,
  options: { samples: number; pick: (index: number) => Address },
) {
  const proxies = await Promise.all(
    chainNames.map((name) =>
      startCountingProxy(world.chains[name].rpcUrl, { delayMs: publicRpcDelayMs }),
    ),
  );
  try {
    const rpcUrls = Object.fromEntries(
      chainNames.map((name, index) => [name, [proxies[index]?.url as string]]),
    ) as Record<ChainName, string[]>;
    const engine = createEngine({ reader: createChainReader({ rpcUrls, ttlMs: 0 }) });
    const rawRoundTrip = async (index: number) => {
      const response = await fetch(rpcUrls.base[0] as string, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(buildFactsBatch(options.pick(index), "base")),
      });
      await response.json();
    };
    // Deep's floor here: the five raw round trips in parallel, one per chain.
    const rawFive = (index: number) =>
      Promise.all(
        chainNames.map(async (name) => {
          const response = await fetch(rpcUrls[name]?.[0] as string, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(buildFactsBatch(options.pick(index), name)),
          });
          await response.json();
        }),
      );
    const check = (index: number) => engine.check({ address: options.pick(index), chain: "base" });
    const deep = (index: number) => engine.deep({ address: options.pick(index), chain: "base" });
    const raw: number[] = [];
    const checks: number[] = [];
    const deeps: number[] = [];
    const rawFives: number[] = [];
    const samples = Math.max(20, Math.floor(options.samples / 2));
    const block = Math.max(10, Math.floor(samples / 5));
    for (let done = 0; done < samples; done += block) {
      raw.push(...(await timeRuns(rawRoundTrip, { count: block })));
      checks.push(...(await timeRuns(check, { count: block })));
      deeps.push(...(await timeRuns(deep, { count: block })));
      rawFives.push(...(await timeRuns(rawFive, { count: block })));
    }
    const summary = (values: number[]) => ({
      p50: percentile(values, 50),
      p95: percentile(values, 95),
    });
    const rawFiveMs = summary(rawFives);
    const rawMs = summary(raw);
    const checkMs = summary(checks);
    const deepMs = summary(deeps);
    return {
      delayMs: publicRpcDelayMs,
      rawRoundTripMs: rawMs,
      checkMs,
      deepMs,
      checkVsRaw: { p50: checkMs.p50 / rawMs.p50, p95: checkMs.p95 / rawMs.p95 },
      deepVsCheck: { p50: deepMs.p50 / checkMs.p50, p95: deepMs.p95 / checkMs.p95 },
      rawFiveMs,
      rawFiveVsRaw: { p50: rawFiveMs.p50 / rawMs.p50, p95: rawFiveMs.p95 / rawMs.p95 },
    };
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}

/**
 * Engine figures on the local world: upstream requests per check (counted at a proxy), check
 * latency against one raw fetch of the same JSON-RPC batch, and deep against check.
 */
export async function benchEngine(world: World, options: { samples: number }) {
  const proxies = await Promise.all(
    chainNames.map((name) => startCountingProxy(world.chains[name].rpcUrl)),
  );
  try {
    const rpcUrls = Object.fromEntries(
      chainNames.map((name, index) => [name, [proxies[index]?.url as string]]),
    ) as Record<ChainName, string[]>;
    // No cache: every check must go upstream, or the figures would measure a Map lookup.
    const reader = createChainReader({ rpcUrls, ttlMs: 0 });
    const engine = createEngine({ reader });
    const addresses = world.demo.map((demo) => demo.address);
    const pick = (index: number) => addresses[index % addresses.length] as Address;
    const total = () => proxies.reduce((sum, proxy) => sum + proxy.count(), 0);

    const beforeChecks = total();
    const checkRuns = 50;
    for (let index = 0; index < checkRuns; index++) {
      await engine.check({ address: pick(index), chain: "base" });
    }
    const requestsPerCheck = (total() - beforeChecks) / checkRuns;
    const beforeDeep = total();
    for (let index = 0; index < 10; index++) {
      await engine.deep({ address: pick(index), chain: "base" });
    }
    const requestsPerDeep = (total() - beforeDeep) / 10;

    // Latency is timed straight against anvil: the counting proxy lives in this process and would
    // tax every figure with its own work.
    const directUrls = Object.fromEntries(
      chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
    ) as Record<ChainName, string[]>;
    const timedEngine = createEngine({
      reader: createChainReader({ rpcUrls: directUrls, ttlMs: 0 }),
    });
    const baseUrl = directUrls.base[0] as string;
    const rawFetch = async (index: number) => {
      const response = await fetch(baseUrl, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(buildFactsBatch(pick(index), "base")),
      });
      await response.json();
    };
    // The floor for deep: the same five raw batches in parallel, one per chain.
    const rawFive = (index: number) =>
      Promise.all(
        chainNames.map(async (name) => {
          const response = await fetch(directUrls[name]?.[0] as string, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(buildFactsBatch(pick(index), name)),
          });
          await response.json();
        }),
      );
    const check = (index: number) => timedEngine.check({ address: pick(index), chain: "base" });
    const deep = (index: number) => timedEngine.deep({ address: pick(index), chain: "base" });
    // Interleave the three in blocks so machine noise lands on all of them.
    const raw: number[] = [];
    const checks: number[] = [];
    const deeps: number[] = [];
    const rawFives: number[] = [];
    const block = Math.max(10, Math.floor(options.samples / 5));
    for (let done = 0; done < options.samples; done += block) {
      raw.push(...(await timeRuns(rawFetch, { count: block })));
      checks.push(...(await timeRuns(check, { count: block })));
      deeps.push(...(await timeRuns(deep, { count: block })));
      rawFives.push(...(await timeRuns(rawFive, { count: block })));
    }
    const summary = (values: number[]) => ({
      p50: percentile(values, 50),
      p95: percentile(values, 95),
    });
    const rawSummary = summary(raw);
    const checkSummary = summary(checks);
    const deepSummary = summary(deeps);
    const rawFiveSummary = summary(rawFives);

    const behindLatency = await timeBehindLatency(world, { samples: options.samples, pick });
    return {
      batchEntries: buildFactsBatch(pick(0), "base").length,
      behindLatency,
      requestsPerCheck,
      requestsPerDeep,
      readerCountsUpstream: reader.stats().upstreamRequests,
      rawFetchMs: rawSummary,
      checkMs: checkSummary,
      deepMs: deepSummary,
      checkVsRaw: {
        p50: checkSummary.p50 / rawSummary.p50,
        p95: checkSummary.p95 / rawSummary.p95,
      },
      rawFiveMs: rawFiveSummary,
      rawFiveVsRaw: {
        p50: rawFiveSummary.p50 / rawSummary.p50,
        p95: rawFiveSummary.p95 / rawSummary.p95,
      },
      deepVsCheck: {
        p50: deepSummary.p50 / checkSummary.p50,
        p95: deepSummary.p95 / checkSummary.p95,
      },
    };
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}
