import { startWorld } from "../src/devnet/startWorld";
import { benchEngine } from "./engineLatency";
import { benchPaidCheck } from "./paidCheck";
import { benchValidateThroughput } from "./validateThroughput";

// `npm run bench`: every figure is a ratio to a baseline measured in the same process and run,
// because these machines are noisy and absolute milliseconds would not compare between runs.

const fixed = (value: number, digits = 2) => value.toFixed(digits);
const quick = process.argv.includes("--quick");

const world = await startWorld();
try {
  console.log(`local world: five chains seeded in ${world.startupMs} ms\n`);

  const engine = await benchEngine(world, { samples: quick ? 50 : 200 });
  console.log("engine (local anvil, no cache)");
  console.log(
    `  upstream HTTP requests per check    ${fixed(engine.requestsPerCheck)}   (goal: 1, counted at a proxy)`,
  );
  console.log(
    `  upstream HTTP requests per deep     ${fixed(engine.requestsPerDeep)}   (goal: 5, one per chain)`,
  );
  console.log(
    `  raw fetch of the same batch         p50 ${fixed(engine.rawFetchMs.p50)} ms  p95 ${fixed(engine.rawFetchMs.p95)} ms`,
  );
  console.log(
    `  engine check                        p50 ${fixed(engine.checkMs.p50)} ms  p95 ${fixed(engine.checkMs.p95)} ms`,
  );
  console.log(
    `  engine deep (five chains)           p50 ${fixed(engine.deepMs.p50)} ms  p95 ${fixed(engine.deepMs.p95)} ms`,
  );
  console.log(
    `  check / raw fetch                   p50 ${fixed(engine.checkVsRaw.p50)}x  p95 ${fixed(engine.checkVsRaw.p95)}x   (goal <= 1.5x)`,
  );
  console.log(
    `  deep / check                        p50 ${fixed(engine.deepVsCheck.p50)}x  p95 ${fixed(engine.deepVsCheck.p95)}x   (goal <= 1.5x)`,
  );

  const paid = await benchPaidCheck(world, { samples: quick ? 30 : 100 });
  const ms = (q: { p50: number; p95: number }) => `p50 ${fixed(q.p50)} ms  p95 ${fixed(q.p95)} ms`;
  console.log(
    `\npaid POST /check end to end (official x402 client, in-process facilitator, ${paid.samples} runs)`,
  );
  console.log(`  whole paid request                  ${ms(paid.paidMs)}`);
  console.log(`    verify (facilitator)              ${ms(paid.verifyMs)}`);
  console.log(`    engine (inside the route)         ${ms(paid.engineMs)}`);
  console.log(`    settle (tx + receipt)             ${ms(paid.settleMs)}`);
  console.log(`  engine alone                        ${ms(paid.engineAloneMs)}`);
  console.log(`  client signing (not in the total)   ${ms(paid.signMs)}`);
  console.log(
    `  paid / engine alone                 p50 ${fixed(paid.paidVsEngine.p50, 1)}x  p95 ${fixed(paid.paidVsEngine.p95, 1)}x`,
  );

  const throughput = await benchValidateThroughput({
    rounds: quick ? 1 : 3,
    seconds: quick ? 1 : 3,
  });
  console.log("\n/validate throughput (autocannon, 10 connections, same node-server)");
  console.log(`  bare Hono route                     ${fixed(throughput.bareRps, 0)} req/s`);
  console.log(`  GET /validate                       ${fixed(throughput.validateRps, 0)} req/s`);
  console.log(`  /validate / bare                    ${fixed(throughput.ratio)}x   (goal >= 0.8x)`);
} finally {
  await world.stop();
}
