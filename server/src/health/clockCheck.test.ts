import { sharedWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { createPaymentChain } from "../payments/facilitator/createPaymentChain";
import { clockCheck, maxClockSkewSeconds } from "./clockCheck";

// The local Base mines a block every second, as Base does every two: its latest block is the
// chain's clock.
const world = sharedWorld();
const chain = createPaymentChain({
  rpcUrls: [world.chains.base.rpcUrl],
  chainId: chains.base.id,
  asset: chains.base.usdc.address,
});
const offBy = (seconds: number) =>
  clockCheck({ chainNow: () => chain.now(), clock: () => Date.now() + seconds * 1000 })();

describe("clockCheck against a real chain", () => {
  it("is ready with a clock within a few seconds of the chain's, either way", async () => {
    for (const seconds of [0, -3, 3]) expect(await offBy(seconds)).toEqual({ ready: true });
  });

  it("reports a clock 200 s behind or an hour ahead unready, naming the skew", async () => {
    const behind = await offBy(-200);
    expect(behind).toMatchObject({ ready: false });
    expect(behind.ready === false && behind.reason).toMatch(/clock is (19|20)\d s behind/);
    const ahead = await offBy(3600);
    expect(ahead.ready === false && ahead.reason).toMatch(/clock is 360\d s ahead/);
  });

  it("draws the line past the tolerance", async () => {
    expect((await offBy(maxClockSkewSeconds + 10)).ready).toBe(false);
    expect((await offBy(-(maxClockSkewSeconds + 10))).ready).toBe(false);
  });

  it("says nothing about the clock when the chain cannot be read", async () => {
    const check = clockCheck({
      chainNow: () => Promise.reject(new Error("down")),
      clock: () => 0,
    });
    expect(await check()).toEqual({ ready: true });
  });

  it("answers what its caller says while the chain cannot be read", async () => {
    const unreadable = { ready: false, reason: "no chain" } as const;
    const down = clockCheck({
      chainNow: () => Promise.reject(new Error("down")),
      whenUnreadable: unreadable,
    });
    expect(await down()).toEqual(unreadable);
    const up = clockCheck({ chainNow: () => chain.now(), whenUnreadable: unreadable });
    expect(await up()).toEqual({ ready: true });
  });
});

// A chain clock fixed by the test: the line is drawn to the second, which a live chain (a block
// a second, read a moment later) cannot show.
describe("clockCheck's tolerance", () => {
  it("is ready up to 15 s off and unready past it, well inside the 30 s of slack payments get", async () => {
    const chainNow = 1_800_000_000;
    const at = (seconds: number) =>
      clockCheck({
        chainNow: async () => chainNow,
        clock: () => (chainNow + seconds) * 1000,
      })();
    for (const seconds of [15, -15]) expect(await at(seconds)).toEqual({ ready: true });
    for (const seconds of [16, -16]) expect((await at(seconds)).ready).toBe(false);
  });
});
