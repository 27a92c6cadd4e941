import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { Redis } from "ioredis";
import { z } from "zod";
import {
  paidRequestKey,
  rereadWindowSeconds,
  type SignInState,
} from "../payments/siwx/createSignInState";
import { redisDown } from "./redisDown";

/** A remembered payment as kept in Redis; anything else found there is not one. */
const AuthorizationKeySchema = z.object({ payer: z.string(), nonce: z.string() });

/**
 * The sign-in state shared by every replica of a fleet. A spent nonce is `SET NX` with the
 * message's remaining lifetime as expiry, so a message taken by one replica is a replay on all;
 * a paid request is kept under payer, route, address, chain and sender for the re-read window,
 * so a payment served by one replica is re-read through another. (The payment records store, shared
 * too, is keyed by authorization and transaction only: it cannot find a payer's recent request.)
 * Every call rejects when Redis is down or fails: the caller refuses the sign-in.
 * @example const state = createRedisSignInState(redis); await state.useNonce(nonce, expiresAt);
 */
export function createRedisSignInState(
  redis: Redis,
  options: { prefix?: string; clock?: () => number } = {},
): SignInState {
  const prefix = options.prefix ?? "presend:siwx:";
  const clock = options.clock ?? Date.now;
  const down = redisDown(redis);
  // A lost connection: say so now rather than queue the command for its timeout.
  const up = () => {
    if (down()) throw new UpstreamError(`redis is ${redis.status}`, { code: "redis_unavailable" });
  };
  const nonceKey = (nonce: string) => `${prefix}nonce:${nonce}`;
  const paidKey = (request: Parameters<SignInState["recentPayment"]>[0]) =>
    `${prefix}paid:${paidRequestKey(request)}`;
  return {
    async rememberPaid(request, payment) {
      up();
      await redis.set(paidKey(request), JSON.stringify(payment), "EX", rereadWindowSeconds);
    },
    async recentPayment(request) {
      up();
      const text = await redis.get(paidKey(request));
      if (text === null) return undefined;
      // Whatever is in Redis is outside input like any other: a bad entry is no payment.
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return undefined;
      }
      const parsed = AuthorizationKeySchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    async nonceUsed(nonce) {
      up();
      return (await redis.exists(nonceKey(nonce))) === 1;
    },
    async useNonce(nonce, expiresAt) {
      up();
      // At least a second: a message at its last moment is still taken once.
      const ttlMs = Math.max(1_000, Math.ceil(expiresAt - clock()));
      return (await redis.set(nonceKey(nonce), "1", "PX", ttlMs, "NX")) === "OK";
    },
  };
}
