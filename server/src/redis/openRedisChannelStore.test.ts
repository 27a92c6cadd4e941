import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { describeChannelStore, sampleChannel } from "../payments/channels/channelStoreContract";
import { openRedis } from "./openRedis";
import { openRedisChannelStore, redisKeepsWrites } from "./openRedisChannelStore";

// One real redis-server (Debian's) for the file; every contract case gets its own key prefix,
// every open() its own connection (another replica).
let redis: LocalRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

let prefixes = 0;
describeChannelStore("redis", async () => {
  const prefix = `test${++prefixes}`;
  const connections: ReturnType<typeof openRedis>[] = [];
  return {
    open: async () => {
      const connection = openRedis(redis.url);
      connections.push(connection);
      return openRedisChannelStore(connection, prefix);
    },
    cleanup: async () => {
      for (const connection of connections) connection.disconnect();
    },
  };
});

describe("Redis channel store durability", () => {
  it("tells a Redis that keeps an append-only file from one in memory only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-redis-aof-"));
    const keeping = await startRedis({ appendOnlyDir: dir });
    const [memoryOnly, appendOnly] = [openRedis(redis.url), openRedis(keeping.url)];
    try {
      // A restart of the first would lose every voucher its channels hold.
      expect(await redisKeepsWrites(memoryOnly)).toBe(false);
      expect(await redisKeepsWrites(appendOnly)).toBe(true);
    } finally {
      memoryOnly.disconnect();
      appendOnly.disconnect();
      await keeping.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a channel's voucher and its charges across a kill of an append-only Redis", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-redis-aof-"));
    const keeping = await startRedis({ appendOnlyDir: dir });
    const id = `0x${"a".repeat(64)}`;
    const key = { payer: `0x${"1".repeat(40)}`, nonce: `0x${"b".repeat(64)}` };
    try {
      const before = openRedis(keeping.url);
      const store = openRedisChannelStore(before);
      await store.updateChannel(id, () => sampleChannel(id, 30n));
      await store.addCharge({ key, channelId: id, cumulative: 30n });
      await store.commitCharge(key);
      before.disconnect();
      // Killed, not stopped: what it acknowledged was in its append-only file already.
      await keeping.kill();
      await keeping.restart();
      const after = openRedis(keeping.url);
      try {
        const reopened = openRedisChannelStore(after);
        expect(await reopened.get(id)).toEqual(sampleChannel(id, 30n));
        expect(await reopened.unclaimedCharges(id)).toEqual([
          { key, channelId: id, cumulative: 30n, committed: true, claimedTx: null },
        ]);
      } finally {
        after.disconnect();
      }
    } finally {
      await keeping.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Redis channel store keys", () => {
  it("lists only its own channels, among other stores' keys and other keys in the same Redis", async () => {
    const client = openRedis(redis.url);
    const id = `0x${"c".repeat(64)}`;
    try {
      const mine = openRedisChannelStore(client, "scoped-mine");
      const theirs = openRedisChannelStore(client, "scoped-theirs");
      await mine.updateChannel(id, () => sampleChannel(id, 1n));
      await theirs.updateChannel(id, () => sampleChannel(id, 2n));
      await mine.addCharge({
        key: { payer: `0x${"1".repeat(40)}`, nonce: `0x${"d".repeat(64)}` },
        channelId: id,
        cumulative: 1n,
      });
      // The process's one Redis also holds the sign-in state and the rate limits.
      await client.set("presend:siwx:nonce:n", "1");
      expect(await mine.list()).toEqual([sampleChannel(id, 1n)]);
    } finally {
      client.disconnect();
    }
  });
});
