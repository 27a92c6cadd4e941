import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorld, type World } from "../src/devnet/startWorld";
import { benchPaidCheck } from "./paidCheck";

describe("benchPaidCheck", () => {
  let world: World;
  beforeAll(async () => {
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
});
