import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { claimFleetIdentity, FleetIdentityMismatch } from "./claimFleetIdentity";
import { openRedis } from "./openRedis";

const identity = {
  kid: "presend-2026-11",
  thumbprint: "abc",
  payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
};

describe("claimFleetIdentity (a real Redis)", () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it("lets replicas with the same key and payTo start, refuses one with another key or payTo, naming the fleet's", async () => {
    const connections = [openRedis(redis.url), openRedis(redis.url), openRedis(redis.url)];
    const [a, b, c] = connections as [
      ReturnType<typeof openRedis>,
      ReturnType<typeof openRedis>,
      ReturnType<typeof openRedis>,
    ];
    try {
      const first = await claimFleetIdentity(a, identity, "t1");
      const second = await claimFleetIdentity(
        b,
        { ...identity, payTo: identity.payTo.toLowerCase() },
        "t1",
      );
      expect(first.readiness()).toEqual({ ready: true });
      expect(second.readiness()).toEqual({ ready: true });
      await expect(
        claimFleetIdentity(c, { ...identity, thumbprint: "other" }, "t1"),
      ).rejects.toThrow(FleetIdentityMismatch);
      await expect(
        claimFleetIdentity(
          c,
          { ...identity, payTo: "0x9Cb2e6859F097014298CC31c8d39D4217502960f" },
          "t1",
        ),
      ).rejects.toThrow(/presend-2026-11 and payTo 0x0b62738da3553dae5d0c6420bfc6a3ee6c951350/);
      first.stop();
      second.stop();
    } finally {
      for (const connection of connections) connection.disconnect();
    }
  });

  it("a replica that finds another identity once running (the store was emptied, another claimed it) turns unready", async () => {
    const [a, b] = [openRedis(redis.url), openRedis(redis.url)];
    try {
      const running = await claimFleetIdentity(a, identity, "t2");
      await redis.kill();
      await redis.restart();
      const other = await claimFleetIdentity(b, { ...identity, kid: "presend-2099-01" }, "t2");
      await expect
        .poll(() => running.readiness(), { timeout: 15_000, interval: 500 })
        .toMatchObject({ ready: false, reason: expect.stringContaining("presend-2099-01") });
      running.stop();
      other.stop();
    } finally {
      a.disconnect();
      b.disconnect();
    }
  }, 20_000);

  it("a replica starting with the fleet's identity renews it: the identity outlives the replica that wrote it", async () => {
    const [a, b] = [openRedis(redis.url), openRedis(redis.url)];
    try {
      const first = await claimFleetIdentity(a, identity, "t4");
      first.stop();
      // As if the first replica stopped 25 s ago: 5 s left before another identity could claim.
      await a.pexpire("t4", 5_000);
      const second = await claimFleetIdentity(b, identity, "t4");
      second.stop();
      expect(await a.pttl("t4")).toBeGreaterThan(25_000);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it("starts when the store cannot be asked (readiness reports the store)", async () => {
    const down = openRedis("redis://127.0.0.1:1");
    try {
      const claim = await claimFleetIdentity(down, identity, "t3");
      expect(claim.readiness()).toEqual({ ready: true });
      claim.stop();
    } finally {
      down.disconnect();
    }
  });
});
