import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { ReportSchema } from "@presend/shared/api/report";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import type { Redis } from "ioredis";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { createRedisInFlightLock } from "../redis/createRedisInFlightLock";
import { openRedis } from "../redis/openRedis";
import { leaseTtlMs } from "./resourceServer/paymentLedger";
import { exactPayments } from "./testing/exactPayments";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

// The in-flight and payment-id locks in a real Redis (its own process, killed and restarted
// here), the payments settled on the shared world's Base by the in-process facilitator.
describe("payment locks in Redis: faults of the lock store", () => {
  let stack: PaidStack;
  let redis: LocalRedis;
  let connection: Redis;
  let duringEngine: (() => Promise<void>) | null = null;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: target,
    chain: "base",
  });

  beforeAll(async () => {
    redis = await startRedis();
    connection = openRedis(redis.url);
    const wrapEngine = (engine: Engine): Engine => ({
      check: async (input) => {
        await duringEngine?.();
        return engine.check(input);
      },
      deep: (input) => engine.deep(input),
    });
    stack = await startPaidStack({
      world: shared.world,
      lock: createRedisInFlightLock(connection),
      wrapEngine,
    });
  });
  afterEach(() => {
    duringEngine = null;
  });
  afterAll(async () => {
    await stack?.stop();
    connection?.disconnect();
    await redis?.stop();
  });

  it("Redis killed while a paid check runs: the charged payer gets the report, not a 500 (freeing the lock failed after settlement)", async () => {
    const { headers, nonce } = await signed();
    duringEngine = () => redis.kill();
    const before = await stack.usdcBalance(payer.address);
    const answer = await post(headers);
    expect(answer.status).toBe(200);
    const report = ReportSchema.parse(await answer.json());
    const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    expect(settlement.success).toBe(true);
    expect(await used(nonce)).toBe(true);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
    const record = await stack.records.byAuthorization({ payer: payer.address, nonce });
    expect(record).toMatchObject({ status: "settled", tx: settlement.transaction.toLowerCase() });
    expect(record?.report).toEqual(report);
    await redis.restart();
  });

  it("Redis down before a paid check: 503 payment_record_unavailable before anything is verified, nothing charged", async () => {
    const { headers, nonce } = await signed();
    await redis.kill();
    try {
      const before = await stack.usdcBalance(payer.address);
      const started = performance.now();
      const answer = await post(headers);
      expect(answer.status).toBe(503);
      expect((await answer.json()).error.code).toBe("payment_record_unavailable");
      // Known at once, not after a command timeout.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(await used(nonce)).toBe(false);
      expect(await stack.usdcBalance(payer.address)).toBe(before);
      expect(await stack.records.byAuthorization({ payer: payer.address, nonce })).toBeUndefined();
    } finally {
      await redis.restart();
    }
    // Back up: the same authorization pays.
    await expect.poll(async () => (await post(headers)).status, { timeout: 10_000 }).toBe(200);
  });

  it("Redis frozen (it stops answering, connections stay open) before a paid check: 503 payment_record_unavailable within seconds, nothing charged; paid once it answers again", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    redis.freeze();
    try {
      const started = performance.now();
      const answer = await post(headers);
      expect(answer.status).toBe(503);
      expect((await answer.json()).error.code).toBe("payment_record_unavailable");
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(await used(nonce)).toBe(false);
      expect(await stack.usdcBalance(payer.address)).toBe(before);
    } finally {
      redis.thaw();
    }
    await expect.poll(async () => (await post(headers)).status, { timeout: 10_000 }).toBe(200);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
  });

  it("a replica that died holding a payment id's lock blocks its retry for one lease, not minutes: the retry then gets the report", async () => {
    await expect.poll(() => connection.ping().catch(() => null), { timeout: 10_000 }).toBe("PONG");
    const paymentId = generatePaymentId();
    const first = await post((await signed(paymentId)).headers);
    expect(first.status).toBe(200);
    const report = await first.json();
    // A dead replica's lock: taken through its own connection, never renewed nor released.
    const deadReplica = openRedis(redis.url);
    try {
      expect(
        await createRedisInFlightLock(deadReplica).tryAcquire(
          `payment-id:${paymentId}`,
          leaseTtlMs,
        ),
      ).toBe(true);
    } finally {
      deadReplica.disconnect();
    }
    const retryHeaders = (await signed(paymentId)).headers;
    const blocked = await post(retryHeaders);
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).error.code).toBe("payment_id_in_flight");
    const started = Date.now();
    let retry = blocked;
    while (retry.status === 409 && Date.now() - started < leaseTtlMs + 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      retry = await post(retryHeaders);
    }
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(report);
    expect(Date.now() - started).toBeLessThan(leaseTtlMs + 1_000);
  });

  it("a slow paid check keeps its lease past one ttl: a second request with its authorization is still refused", async () => {
    const { headers } = await signed();
    let second: Response | null = null;
    duringEngine = async () => {
      await new Promise((resolve) => setTimeout(resolve, leaseTtlMs + 1_000));
      second = await post(headers);
    };
    const answer = await post(headers);
    expect(answer.status).toBe(200);
    expect(second).not.toBeNull();
    expect((second as unknown as Response).status).toBe(409);
    expect(await (second as unknown as Response).json()).toMatchObject({
      error: { code: "authorization_in_flight" },
    });
  }, 20_000);
});
