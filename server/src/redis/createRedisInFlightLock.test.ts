import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { describeInFlightLock } from "../paymentRecords/inFlightLockContract";
import { createRedisInFlightLock } from "./createRedisInFlightLock";
import { openRedis } from "./openRedis";

let redis: LocalRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
describeInFlightLock("redis", async () => {
  const client = openRedis(redis.url);
  return {
    lock: createRedisInFlightLock(client, `test${++prefixes}:`),
    // Redis expires keys on its own clock: wait for real.
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: async () => {
      client.disconnect();
    },
  };
});

describe("Redis in-flight lock across replicas", () => {
  it("a lock taken by one replica holds for another, and only its holder frees it", async () => {
    const [a, b] = [openRedis(redis.url), openRedis(redis.url)];
    try {
      const replicaA = createRedisInFlightLock(a, "shared:");
      const replicaB = createRedisInFlightLock(b, "shared:");
      expect(await replicaA.tryAcquire("payer:nonce", 10_000)).toBe(true);
      expect(await replicaB.tryAcquire("payer:nonce", 10_000)).toBe(false);
      await replicaB.release("payer:nonce");
      expect(await replicaB.tryAcquire("payer:nonce", 10_000)).toBe(false);
      await replicaA.release("payer:nonce");
      expect(await replicaB.tryAcquire("payer:nonce", 10_000)).toBe(true);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });

  it("a replica whose lock expired and was taken by another neither frees nor extends the new holder's", async () => {
    const [a, b] = [openRedis(redis.url), openRedis(redis.url)];
    try {
      const slow = createRedisInFlightLock(a, "expired:");
      const next = createRedisInFlightLock(b, "expired:");
      expect(await slow.tryAcquire("payer:nonce", 200)).toBe(true);
      // Redis expires keys on its own clock: wait for real.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await next.tryAcquire("payer:nonce", 10_000)).toBe(true);
      expect(await slow.renew("payer:nonce", 200)).toBe(false);
      await slow.release("payer:nonce");
      expect(await b.pttl("expired:payer:nonce")).toBeGreaterThan(5_000);
      expect(await createRedisInFlightLock(b, "expired:").tryAcquire("payer:nonce", 1_000)).toBe(
        false,
      );
    } finally {
      a.disconnect();
      b.disconnect();
    }
  });
});
