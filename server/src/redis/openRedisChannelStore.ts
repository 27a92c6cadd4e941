import { RedisChannelStorage } from "@x402/evm/batch-settlement/server/redis-storage";
import type { Redis } from "ioredis";
import { z } from "zod";
import { normalizeKey } from "../paymentRecords/paymentRecordStore";
import type { ChannelCharge, ChannelStore } from "../payments/channels/channelStore";

/** Every key of the store starts with this (the package's own prefix, for its channel keys). */
const defaultPrefix = "presend:batch-settlement";

const ChargeHashSchema = z.object({
  payer: z.string(),
  nonce: z.string(),
  channelId: z.string(),
  cumulative: z.string().regex(/^\d+$/),
  committed: z.enum(["0", "1"]),
  claimedTx: z.string(),
});

// Each charge is one hash; the ids of the charges no claim covered yet are one set. Every change
// is one script, so a charge and the set never disagree, whichever replica writes.
const addChargeScript = `
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "payer", ARGV[1], "nonce", ARGV[2], "channelId", ARGV[3],
  "cumulative", ARGV[4], "committed", "0", "claimedTx", "")
redis.call("SADD", KEYS[2], ARGV[5])
return 1`;
const commitChargeScript = `
if redis.call("EXISTS", KEYS[1]) == 0 then return 0 end
redis.call("HSET", KEYS[1], "committed", "1")
return 1`;
const dropChargeScript = `
if redis.call("HGET", KEYS[1], "committed") ~= "0" then return 0 end
redis.call("DEL", KEYS[1])
redis.call("SREM", KEYS[2], ARGV[1])
return 1`;
const dropUnclaimableScript = `
if redis.call("HGET", KEYS[1], "claimedTx") ~= "" then return 0 end
redis.call("DEL", KEYS[1])
redis.call("SREM", KEYS[2], ARGV[1])
return 1`;
const markClaimedScript = `
if redis.call("HGET", KEYS[1], "claimedTx") ~= "" then return 0 end
redis.call("HSET", KEYS[1], "claimedTx", ARGV[2])
redis.call("SREM", KEYS[2], ARGV[1])
return 1`;

/**
 * The ChannelStore on Redis, shared by every replica: the channels in `@x402/evm`'s own
 * RedisChannelStorage (one JSON value per channel, each update a compare-and-set script retried
 * on conflict, so replicas never interleave between the scheme's read and its write), the charge
 * index beside it in hashes changed by scripts. Durable only as far as the server's persistence
 * goes: composeServer opens it only on a Redis that keeps an append-only file (see
 * redisKeepsWrites), so a restart of Redis loses no voucher.
 * @example const store = openRedisChannelStore(openRedis(config.redisUrl));
 */
export function openRedisChannelStore(redis: Redis, prefix = defaultPrefix): ChannelStore {
  const channels = new RedisChannelStorage({
    keyPrefix: prefix,
    client: {
      get: (key) => redis.get(key),
      set: (key, value, options) =>
        options?.NX && options.PX !== undefined
          ? redis.set(key, value, "PX", options.PX, "NX")
          : options?.NX
            ? redis.set(key, value, "NX")
            : redis.set(key, value),
      del: (key) => redis.del(key),
      eval: (script, { keys, arguments: args }) =>
        redis.eval(script, keys.length, ...keys, ...args),
      scanIterator: (options) => scanKeys(redis, options.MATCH ?? "*", options.COUNT ?? 100),
    },
  });
  const openSet = `${prefix}:charges:open`;
  const chargeId = (payer: string, nonce: string) => `${payer}:${nonce}`;
  const chargeKey = (id: string) => `${prefix}:charge:${id}`;
  const chargeOf = (hash: Record<string, string>): ChannelCharge => {
    const charge = ChargeHashSchema.parse(hash);
    return {
      key: { payer: charge.payer, nonce: charge.nonce },
      channelId: charge.channelId,
      cumulative: BigInt(charge.cumulative),
      committed: charge.committed === "1",
      claimedTx: charge.claimedTx === "" ? null : charge.claimedTx,
    };
  };

  return {
    get: (channelId) => channels.get(channelId),
    list: () => channels.list(),
    updateChannel: (channelId, update) => channels.updateChannel(channelId, update),
    async addCharge(charge) {
      const { payer, nonce } = normalizeKey(charge.key);
      const id = chargeId(payer, nonce);
      await redis.eval(
        addChargeScript,
        2,
        chargeKey(id),
        openSet,
        payer,
        nonce,
        charge.channelId.toLowerCase(),
        charge.cumulative.toString(),
        id,
      );
    },
    async commitCharge(key) {
      const { payer, nonce } = normalizeKey(key);
      await redis.eval(commitChargeScript, 1, chargeKey(chargeId(payer, nonce)));
    },
    async dropCharge(key) {
      const { payer, nonce } = normalizeKey(key);
      const id = chargeId(payer, nonce);
      await redis.eval(dropChargeScript, 2, chargeKey(id), openSet, id);
    },
    async dropUnclaimable(key) {
      const { payer, nonce } = normalizeKey(key);
      const id = chargeId(payer, nonce);
      await redis.eval(dropUnclaimableScript, 2, chargeKey(id), openSet, id);
    },
    async unclaimedCharges(channelId) {
      const ids = await redis.smembers(openSet);
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hgetall(chargeKey(id));
      const hashes = (await pipeline.exec()) ?? [];
      const wanted = channelId?.toLowerCase();
      return hashes
        .flatMap(([error, hash]) => {
          if (error) throw error;
          const fields = hash as Record<string, string>;
          return Object.keys(fields).length === 0 ? [] : [chargeOf(fields)];
        })
        .filter((charge) => wanted === undefined || charge.channelId === wanted)
        .sort((a, b) => (a.cumulative < b.cumulative ? -1 : a.cumulative > b.cumulative ? 1 : 0));
    },
    async markClaimed(keys, tx) {
      const pipeline = redis.pipeline();
      for (const key of keys) {
        const { payer, nonce } = normalizeKey(key);
        const id = chargeId(payer, nonce);
        pipeline.eval(markClaimedScript, 2, chargeKey(id), openSet, id, tx.toLowerCase());
      }
      for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    },
    // The connection is the process's (openRedis), closed with the rest of the shared stores.
    async close() {},
  };
}

/** Every key matching `pattern`, one SCAN page at a time. */
async function* scanKeys(redis: Redis, pattern: string, count: number): AsyncIterable<string[]> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", count);
    cursor = next;
    if (keys.length > 0) yield keys;
  } while (cursor !== "0");
}

/**
 * Whether this Redis writes every change to its append-only file (AOF on): only then does a
 * restart of it keep the vouchers its channels hold. Read from INFO, which managed services
 * allow where CONFIG GET is refused.
 * @example if (!(await redisKeepsWrites(redis))) throw new ConfigError("...");
 */
export async function redisKeepsWrites(redis: Redis): Promise<boolean> {
  const info = await redis.info("persistence");
  return /^aof_enabled:1\r?$/m.test(info);
}
