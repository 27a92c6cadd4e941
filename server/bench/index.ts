import { startWorld } from "@presend/devnet";
import { benchEngine } from "./engineLatency";
import { benchPaidCheck, benchPaidConcurrency } from "./paidCheck";
import { benchValidateThroughput } from "./validateThroughput";

// `npm run bench`: every figure is a ratio to a baseline measured in the same process and run,
// because these machines are noisy and absolute milliseconds would not compare between runs.

const quick = process.argv.includes("--quick");
const fixed = (value: number, digits = 2) => value.toFixed(digits);
const ms = (q: { p50: number; p95: number }) => `p50 ${fixed(q.p50)} ms  p95 ${fixed(q.p95)} ms`;
const ratio = (q: { p50: number; p95: number }, digits = 2) =>
  `p50 ${fixed(q.p50, digits)}x  p95 ${fixed(q.p95, digits)}x`;
const row = (label: string, value: string, goal = "") =>
  console.log(`  ${label.padEnd(36)}${value}${goal ? `   (${goal})` : ""}`);

const world = await startWorld();
try {
  console.log(`local world: five chains seeded in ${world.startupMs} ms\n`);

  const engine = await benchEngine(world, { samples: quick ? 50 : 200 });
  console.log("engine (local anvil, no cache)");
  row("JSON-RPC batch entries per chain", String(engine.batchEntries), "goal <= 10");
  row("upstream HTTP requests per check", fixed(engine.requestsPerCheck), "goal 1, at a proxy");
  row("upstream HTTP requests per deep", fixed(engine.requestsPerDeep), "goal 5, one per chain");
  row("raw fetch of the same batch", ms(engine.rawFetchMs));
  row("engine check", ms(engine.checkMs));
  row("engine deep (five chains)", ms(engine.deepMs));
  row("five raw fetches in parallel", ms(engine.rawFiveMs));
  row("check / raw fetch", ratio(engine.checkVsRaw), "goal <= 1.5x");
  row("deep / check", ratio(engine.deepVsCheck), "goal <= 1.5x");
  row("five raw / one raw (deep's floor)", ratio(engine.rawFiveVsRaw));
  const slow = engine.behindLatency;
  console.log(
    `\nengine behind a proxy adding ${slow.delayMs} ms per upstream round trip (no cache)`,
  );
  row("raw round trip of the batch", ms(slow.rawRoundTripMs));
  row("engine check", ms(slow.checkMs));
  row("engine deep (five chains)", ms(slow.deepMs));
  row("check / raw round trip", ratio(slow.checkVsRaw), "goal <= 1.1x");
  row("deep / check", ratio(slow.deepVsCheck), "goal <= 1.2x");
  row("five raw / one raw (deep's floor)", ratio(slow.rawFiveVsRaw));

  const paid = await benchPaidCheck(world, { samples: quick ? 30 : 100 });
  console.log(
    `\npaid POST /check end to end (official x402 client, in-process facilitator, ${paid.samples} runs)`,
  );
  row("whole paid request", ms(paid.paidMs));
  row("  verify (facilitator)", ms(paid.verifyMs));
  row("  engine (inside the route)", ms(paid.engineMs));
  row("  settle (tx + receipt)", ms(paid.settleMs));
  row("engine alone", ms(paid.engineAloneMs));
  row("client signing (not in the total)", ms(paid.signMs));
  row("paid / engine alone", ratio(paid.paidVsEngine, 1));

  const load = await benchPaidConcurrency(world, {
    levels: [1, 10, 50],
    perWorker: quick ? 2 : 4,
    samples: quick ? 10 : 30,
  });
  console.log(
    "\npaid POST /check under load (one payer per worker, each paying one after another)",
  );
  for (const level of load.levels) {
    row(
      `concurrency ${level.concurrency} (${level.requests} paid)`,
      `${fixed(level.paidPerSecond, 1)} paid/s  refused ${fixed(level.refusedShare * 100, 1)}%  ${ms(level.latencyMs)}`,
      "goal 0% refused",
    );
  }
  row("write-ahead record (SQLite)", ms(load.withRecordMs));
  row("in-memory record", ms(load.withoutRecordMs));
  row("record / no durable record", ratio(load.recordRatio));
  row("record's own store work", ms(load.recordOpsMs));
  row("store work / paid request (p50)", `${fixed(load.recordOpsShare * 100, 1)}%`);

  const throughput = await benchValidateThroughput({
    rounds: quick ? 1 : 3,
    seconds: quick ? 1 : 3,
  });
  console.log("\n/validate throughput (autocannon, 10 connections, same node-server)");
  row("bare Hono route", `${fixed(throughput.bareRps, 0)} req/s`);
  row("GET /validate", `${fixed(throughput.validateRps, 0)} req/s`);
  row("/validate / bare", `${fixed(throughput.ratio)}x`, "goal >= 0.8x");
} finally {
  await world.stop();
}
