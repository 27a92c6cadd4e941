import { startWorld, type World } from "@presend/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchPaidCheck, benchPaidConcurrency } from "./paidCheck";

describe("benchPaidCheck", () => {
  let world: World;
  beforeAll(async () => {
    // Its own world, not the shared one: the bench mints its payers' USDC from the faucet, which
    // the shared world keeps for its own setup.
    world = await startWorld();
  });
  afterAll(() => world?.stop());

  it("measures paid /check phases that add up to no more than the whole request", async () => {
    const figures = await benchPaidCheck(world, { samples: 5 });
    for (const key of [
      "paidMs",
      "verifyMs",
      "engineMs",
      "settleMs",
      "engineAloneMs",
      "signMs",
    ] as const) {
      expect(figures[key].p50).toBeGreaterThan(0);
      expect(figures[key].p95).toBeGreaterThanOrEqual(figures[key].p50);
    }
    expect(figures.verifyMs.p50 + figures.settleMs.p50).toBeLessThan(figures.paidMs.p95);
    expect(figures.paidVsEngine.p50).toBeGreaterThan(1);
  });

  it("measures paid checks per second per concurrency level, none refused, and the record's cost", async () => {
    const figures = await benchPaidConcurrency(world, { levels: [1, 3], perWorker: 2, samples: 3 });
    expect(figures.levels.map((level) => level.requests)).toEqual([2, 6]);
    for (const level of figures.levels) {
      expect(level.refusedShare).toBe(0);
      expect(level.paidPerSecond).toBeGreaterThan(0);
      expect(level.latencyMs.p95).toBeGreaterThanOrEqual(level.latencyMs.p50);
    }
    expect(figures.recordRatio.p50).toBeGreaterThan(0);
    expect(figures.recordOpsMs.p50).toBeGreaterThan(0);
    expect(figures.recordOpsShare).toBeLessThan(1);
  });
});
