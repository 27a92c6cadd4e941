import { startWorld, type World } from "@presend/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  benchChannelLoad,
  benchChannelPaidCheck,
  benchChannelPaidCheckBehindDelay,
  type ChannelPaidCheckBench,
} from "./channelPaidCheck";

describe("benchChannelPaidCheck", () => {
  let world: World;
  beforeAll(async () => {
    // Its own world, not the shared one: the bench mints its payers' USDC from the faucet.
    world = await startWorld();
  });
  afterAll(() => world?.stop());

  const expectComparison = (figures: ChannelPaidCheckBench) => {
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
    expect(figures.channelAddedMs).toBe(figures.channelMs.p50 - figures.engineAloneMs.p50);
    // Every voucher the channel paid had its signature checked again, apart from the request.
    expect(figures.voucherSignatureMs.p50).toBeGreaterThan(0);
    expect(figures.signatureFloorVsEngine).toBeCloseTo(
      (figures.engineAloneMs.p50 + figures.voucherSignatureMs.p50) / figures.engineAloneMs.p50,
    );
    // The request checks that signature and runs the engine besides: it costs more than either.
    expect(figures.channelMs.p50).toBeGreaterThan(figures.voucherSignatureMs.p50);
  };

  it("measures a voucher-paid /check beside an exact one and the engine alone", async () => {
    expectComparison(await benchChannelPaidCheck(world, { samples: 5 }));
  });

  it("measures the same with every chain round trip held, the payments' RPC requests counted", async () => {
    // A shorter hold than the printed figures' keeps the test quick; the shape is the same.
    const delayMs = 10;
    const figures = await benchChannelPaidCheckBehindDelay(world, { samples: 5, delayMs });
    expectComparison(figures);
    expect(figures.delayMs).toBe(delayMs);
    // The engine's one round trip is held, alone and inside the paid request.
    expect(figures.engineAloneMs.p50).toBeGreaterThanOrEqual(delayMs);
    expect(figures.channelMs.p50).toBeGreaterThanOrEqual(delayMs);
    expect(Number.isFinite(figures.paymentRpcRequestsPerVoucher)).toBe(true);
    expect(figures.paymentRpcRequestsPerVoucher).toBeGreaterThanOrEqual(0);
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
