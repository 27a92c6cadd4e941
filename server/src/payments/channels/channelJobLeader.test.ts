import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRedis, startRedis } from "../../localServices/startRedis";
import { createMemoryInFlightLock } from "../../paymentRecords/createMemoryInFlightLock";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import { createRedisInFlightLock } from "../../redis/createRedisInFlightLock";
import { openRedis } from "../../redis/openRedis";
import { channelJobLeader } from "./channelJobLeader";

const minute = 60_000;

describe("channelJobLeader", () => {
  it("one replica leads a job; it keeps leading by running; the others wait", async () => {
    let now = 0;
    const lock = createMemoryInFlightLock(() => now);
    const a = channelJobLeader(lock, "claim", minute);
    const b = channelJobLeader(lock, "claim", minute);
    expect(await a.lead()).toBe(true);
    expect(await b.lead()).toBe(false);
    // Runs a minute apart, for an hour: the leader's lease never lapses, nobody else runs.
    for (let run = 0; run < 60; run++) {
      now += minute;
      expect(await a.lead()).toBe(true);
      expect(await b.lead()).toBe(false);
    }
    // Another job is led on its own.
    expect(await channelJobLeader(lock, "refund", minute).lead()).toBe(true);
  });

  it("a leader that stops running (a dead replica) hands over once its lease lapses, and not before", async () => {
    let now = 0;
    const lock = createMemoryInFlightLock(() => now);
    const a = channelJobLeader(lock, "claim", minute);
    const b = channelJobLeader(lock, "claim", minute);
    expect(await a.lead()).toBe(true);
    now += 2 * minute;
    expect(await b.lead()).toBe(false);
    now += minute;
    expect(await b.lead()).toBe(true);
  });

  it("a leader that resigns (a stopping replica) hands over at once", async () => {
    const lock = createMemoryInFlightLock();
    const a = channelJobLeader(lock, "claim", minute);
    const b = channelJobLeader(lock, "claim", minute);
    expect(await a.lead()).toBe(true);
    await a.resign();
    expect(await b.lead()).toBe(true);
    await a.resign();
    expect(await a.lead()).toBe(false);
  });

  it("an unreachable lock store leads nobody", async () => {
    const down: InFlightLock = {
      tryAcquire: () => Promise.reject(new Error("redis down")),
      renew: () => Promise.reject(new Error("redis down")),
      release: () => Promise.reject(new Error("redis down")),
    };
    const leader = channelJobLeader(down, "claim", minute);
    expect(await leader.lead()).toBe(false);
    await expect(leader.resign()).resolves.toBeUndefined();
  });
});

describe("channelJobLeader across replicas sharing Redis", () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it("the replicas take turns only when a leader is gone: a dead leader back does not run beside its successor", async () => {
    const [clientA, clientB] = [openRedis(redis.url), openRedis(redis.url)];
    try {
      const intervalMs = 200;
      const a = channelJobLeader(createRedisInFlightLock(clientA, "fleet:"), "claim", intervalMs);
      const b = channelJobLeader(createRedisInFlightLock(clientB, "fleet:"), "claim", intervalMs);
      expect(await a.lead()).toBe(true);
      expect(await b.lead()).toBe(false);
      // A stops running (its lease lasts 2.5 runs): B leads once it lapses.
      await new Promise((resolve) => setTimeout(resolve, intervalMs * 3));
      expect(await b.lead()).toBe(true);
      // A comes back: its lease is B's now, so it does not run.
      expect(await a.lead()).toBe(false);
      expect(await b.lead()).toBe(true);
      await b.resign();
      expect(await a.lead()).toBe(true);
    } finally {
      clientA.disconnect();
      clientB.disconnect();
    }
  });
});
