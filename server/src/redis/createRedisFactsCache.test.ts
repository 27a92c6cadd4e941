import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { JsonRpcRequest } from "../chain/buildFactsBatch";
import { createChainReader } from "../chain/createChainReader";
import { answerFactsBatch } from "../chain/fakeRpc";
import { freePort } from "../http/freePort";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { createRedisFactsCache } from "./createRedisFactsCache";
import { openRedis } from "./openRedis";

const alice: Address = "0xd8da6bf26964af9d7eed9e03e53415d37aa96045";
const rpcUrls = {
  base: ["https://base.example/rpc"],
  ethereum: [],
  arbitrum: [],
  optimism: [],
  polygon: [],
};

let redis: LocalRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

/** The RPC boundary of one replica: answers facts batches after `delayMs`, counting requests. */
function countingRpc(options: { delayMs?: number; status?: number } = {}) {
  const counter = { requests: 0 };
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
    counter.requests++;
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
    if (options.status) return new Response("down", { status: options.status });
    const batch = JSON.parse(String(init?.body)) as JsonRpcRequest[];
    return Response.json(answerFactsBatch(batch, { chainId: 8453, nonce: 3n }));
  };
  return { counter, fetch: fetch as typeof globalThis.fetch };
}

let prefixes = 0;
function replicas(options: { delayMs?: number; status?: number } = {}) {
  const prefix = `facts${++prefixes}:`;
  return [0, 1].map(() => {
    const client = openRedis(redis.url);
    const rpc = countingRpc(options);
    const reader = createChainReader({
      rpcUrls,
      fetch: rpc.fetch,
      ttlMs: 60_000,
      sharedCache: createRedisFactsCache(client, { prefix }),
    });
    return {
      reader,
      rpc: rpc.counter,
      // Replicas that are up: a fresh connection's first command can outlast the 1 s command
      // timeout on a loaded machine, and a failed lookup reads upstream (as it should).
      ready: () => client.ping(),
      close: () => client.disconnect(),
    };
  });
}

describe("chain facts cache shared through Redis", () => {
  it("serves a read made by one replica to another without an upstream request", async () => {
    const [a, b] = replicas();
    try {
      const first = await a?.reader.read(alice, "base");
      const second = await b?.reader.read(alice, "base");
      expect(first).toMatchObject({ status: "ok", outgoingTxs: 3 });
      expect(second).toEqual(first);
      expect([a?.rpc.requests, b?.rpc.requests]).toEqual([1, 0]);
      expect(b?.reader.stats().cacheHits).toBe(1);
    } finally {
      a?.close();
      b?.close();
    }
  });

  it("coalesces a miss on two replicas at once into one upstream request", async () => {
    const [a, b] = replicas({ delayMs: 150 });
    try {
      await Promise.all([a?.ready(), b?.ready()]);
      const [first, second] = await Promise.all([
        a?.reader.read(alice, "base"),
        b?.reader.read(alice, "base"),
      ]);
      expect(second).toEqual(first);
      expect((a?.rpc.requests ?? 0) + (b?.rpc.requests ?? 0)).toBe(1);
    } finally {
      a?.close();
      b?.close();
    }
  });

  it("takes a result stored between its lookup and its check of the reader's lease", async () => {
    // The window a loaded machine widens: the waiting replica misses the result, then the reader
    // stores it and lets go of its lease, then the waiter sees no lease. It must look once more.
    const prefix = `facts${++prefixes}:`;
    const reader = openRedis(redis.url);
    const waiter = openRedis(redis.url);
    const stored = { status: "stored by the reader" };
    const cache = createRedisFactsCache<{ status: string }>(
      new Proxy(waiter, {
        get(target, name, receiver) {
          if (name !== "exists") return Reflect.get(target, name, receiver);
          return async (key: string) => {
            await reader.set(`${prefix}k`, JSON.stringify(stored), "PX", 60_000);
            await reader.del(`${prefix}k:reading`);
            return target.exists(key);
          };
        },
      }),
      { prefix, schema: z.object({ status: z.string() }), pollMs: 1 },
    );
    try {
      await reader.set(`${prefix}k:reading`, "1", "PX", 5_000);
      let readUpstream = 0;
      const answer = await cache.through(
        "k",
        async () => {
          readUpstream++;
          return { status: "read upstream" };
        },
        () => 0,
      );
      expect(answer).toEqual({ facts: stored, fromCache: true });
      expect(readUpstream).toBe(0);
    } finally {
      reader.disconnect();
      waiter.disconnect();
    }
  });

  it("does not share an unavailable result: the next replica tries the chain itself", async () => {
    const [a, b] = replicas({ status: 503 });
    try {
      expect((await a?.reader.read(alice, "base"))?.status).toBe("unavailable");
      expect((await b?.reader.read(alice, "base"))?.status).toBe("unavailable");
      expect([a?.rpc.requests, b?.rpc.requests]).toEqual([1, 1]);
    } finally {
      a?.close();
      b?.close();
    }
  });

  it("reads upstream as usual when Redis cannot be reached", async () => {
    const client = openRedis(`redis://127.0.0.1:${await freePort()}`);
    const rpc = countingRpc();
    const errors: unknown[] = [];
    const reader = createChainReader({
      rpcUrls,
      fetch: rpc.fetch,
      sharedCache: createRedisFactsCache(client, { onError: (error) => errors.push(error) }),
    });
    try {
      expect(await reader.read(alice, "base")).toMatchObject({ status: "ok" });
      expect(rpc.counter.requests).toBe(1);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it("reads upstream at once, asking Redis nothing, once the connection to it was lost", async () => {
    const lost = await startRedis();
    const client = openRedis(lost.url);
    const rpc = countingRpc();
    const errors: unknown[] = [];
    const reader = createChainReader({
      rpcUrls,
      fetch: rpc.fetch,
      sharedCache: createRedisFactsCache(client, { onError: (error) => errors.push(error) }),
    });
    try {
      await client.ping();
      await lost.kill();
      await expect.poll(() => client.status).not.toBe("ready");
      expect(await reader.read(alice, "base")).toMatchObject({ status: "ok" });
      // No command was sent to fail (one sent would wait out its timeout and report an error).
      expect(errors).toEqual([]);
      expect(rpc.counter.requests).toBe(1);
    } finally {
      client.disconnect();
      await lost.stop();
    }
  });
});
