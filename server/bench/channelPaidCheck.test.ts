import { startWorld, type World } from "@presend/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchChannelLoad, benchChannelPaidCheck } from "./channelPaidCheck";

describe("benchChannelPaidCheck", () => {
  let world: World;
  beforeAll(async () => {
    // Its own world, not the shared one: the bench mints its payers' USDC from the faucet.
    world = await startWorld();
  });
  afterAll(() => world?.stop());

  it("measures a voucher-paid /check beside an exact one and the engine alone", async () => {
    const figures = await benchChannelPaidCheck(world, { samples: 5 });
    for (const key of [
      "channelMs",
      "exactMs",
      "engineAloneMs",
      "channelCpuMs",
      "engineAloneCpuMs",
    ] as const) {
      expect(figures[key].p50).toBeGreaterThan(0);
      expect(figures[key].p95).toBeGreaterThanOrEqual(figures[key].p50);
    }
    // A voucher settles nothing in the request: it is faster than a transfer settled in it.
    expect(figures.channelMs.p50).toBeLessThan(figures.exactMs.p50);
  });

  it("measures concurrent payers over channels and with exact, none refused", async () => {
    const figures = await benchChannelLoad(world, { payers: 3, perPayer: 2 });
    expect(figures.requests).toBe(6);
    for (const scheme of [figures.channel, figures.exact]) {
      expect(scheme.refusedShare).toBe(0);
      expect(scheme.paidPerSecond).toBeGreaterThan(0);
    }
  });
});
