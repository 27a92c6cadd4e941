import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { rereadWindowSeconds } from "../payments/siwx/createSignInState";
import { describeSignInState } from "../payments/siwx/signInStateContract";
import { createRedisSignInState } from "./createRedisSignInState";
import { openRedis } from "./openRedis";

let redis: LocalRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
// Two connections with one prefix: two replicas of one fleet.
describeSignInState("redis", async () => {
  const prefix = `siwx${++prefixes}:`;
  const clients = [openRedis(redis.url), openRedis(redis.url)];
  return {
    states: [
      createRedisSignInState(clients[0] as ReturnType<typeof openRedis>, { prefix }),
      createRedisSignInState(clients[1] as ReturnType<typeof openRedis>, { prefix }),
    ],
    now: Date.now,
    // Redis expires keys on its own clock: wait for real.
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    close: async () => {
      for (const client of clients) client.disconnect();
    },
  };
});

const request = { payer: "0xA", route: "/check", address: "0xB", chain: "base", from: "" };

describe("createRedisSignInState", () => {
  it("keeps a paid request for the re-read window and a nonce for its message's remaining lifetime", async () => {
    const client = openRedis(redis.url);
    try {
      const now = Date.now();
      const state = createRedisSignInState(client, { prefix: "ttl:", clock: () => now });
      // A key's time left is its expiry less what Redis's clock has run since it was set, which is
      // no more than this test's clock runs from before the set to after the read.
      const started = Date.now();
      await state.rememberPaid(request, { payer: "0xa", nonce: "0x1" });
      await state.useNonce("n", now + 120_000);
      const paidTtl = await client.pttl("ttl:paid:0xa|/check|0xb|base|");
      const nonceTtl = await client.pttl("ttl:nonce:n");
      const elapsed = Date.now() - started;
      expect(paidTtl).toBeGreaterThanOrEqual(rereadWindowSeconds * 1_000 - elapsed);
      expect(paidTtl).toBeLessThanOrEqual(rereadWindowSeconds * 1_000);
      expect(nonceTtl).toBeGreaterThanOrEqual(120_000 - elapsed);
      expect(nonceTtl).toBeLessThanOrEqual(120_000);
      // A message at its last moment (or past it, by the time it is taken) is still taken once.
      expect(await state.useNonce("last", now)).toBe(true);
      expect(await client.pttl("ttl:nonce:last")).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it("a bad entry found in Redis is no payment", async () => {
    const client = openRedis(redis.url);
    try {
      const state = createRedisSignInState(client, { prefix: "bad:" });
      await client.set("bad:paid:0xa|/check|0xb|base", "{not json");
      expect(await state.recentPayment(request)).toBeUndefined();
      await client.set("bad:paid:0xa|/check|0xb|base", JSON.stringify({ payer: 1 }));
      expect(await state.recentPayment(request)).toBeUndefined();
    } finally {
      client.disconnect();
    }
  });

  it("rejects every call when Redis cannot be reached, and when it was lost", async () => {
    const unreachable = openRedis(`redis://127.0.0.1:${await freePort()}`);
    const own = await startRedis();
    const lost = openRedis(own.url);
    try {
      const never = createRedisSignInState(unreachable);
      await expect(never.nonceUsed("n")).rejects.toThrow();
      await expect(never.useNonce("n", Date.now() + 60_000)).rejects.toThrow();
      await expect(never.recentPayment(request)).rejects.toThrow();
      const state = createRedisSignInState(lost);
      expect(await state.useNonce("n", Date.now() + 60_000)).toBe(true);
      const closed = once(lost, "close");
      await own.kill();
      await closed;
      // Refused at once as unavailable, not queued until the command times out.
      const unavailable = { code: "redis_unavailable" };
      await expect(state.nonceUsed("n")).rejects.toMatchObject(unavailable);
      await expect(state.useNonce("m", Date.now() + 60_000)).rejects.toMatchObject(unavailable);
      await expect(state.recentPayment(request)).rejects.toMatchObject(unavailable);
      await expect(
        state.rememberPaid(request, { payer: "0xa", nonce: "0x1" }),
      ).rejects.toMatchObject(unavailable);
    } finally {
      unreachable.disconnect();
      lost.disconnect();
      await own.stop();
    }
  }, 20_000);
});
