import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { type LocalPostgres, startPostgres } from "../localServices/startPostgres";
import { openPostgresPaymentRecords } from "../paymentRecords/openPostgresPaymentRecords";
import { exactPayments } from "./testing/exactPayments";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

// The payment records in a real PostgreSQL (its own cluster) that stops answering without
// closing anything (SIGSTOP), as a database behind a network partition does.
describe("payment records in a PostgreSQL that hangs", () => {
  let stack: PaidStack;
  let postgres: LocalPostgres;
  let duringEngine: (() => Promise<void> | void) | null = null;
  let afterRecordWritten: (() => void) | null = null;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: target,
    chain: "base",
  });

  beforeAll(async () => {
    postgres = await startPostgres();
    const wrapEngine = (engine: Engine): Engine => ({
      check: async (input) => {
        await duringEngine?.();
        return engine.check(input);
      },
      deep: (input) => engine.deep(input),
    });
    const records = await openPostgresPaymentRecords(postgres.url);
    stack = await startPaidStack({
      world: shared.world,
      // The store as it is, but able to freeze the database the moment a record is written.
      records: {
        ...records,
        begin: async (record) => {
          const written = await records.begin(record);
          afterRecordWritten?.();
          return written;
        },
      },
      wrapEngine,
    });
  });
  afterEach(() => {
    duringEngine = null;
    afterRecordWritten = null;
    postgres.thaw();
  });
  afterAll(async () => {
    await stack?.stop();
    await postgres?.stop();
  });

  /** Thaws the database; once ready again, the same authorization is paid (and used on chain). */
  const thawThenPaysAgain = async ({ headers, nonce }: Awaited<ReturnType<typeof signed>>) => {
    postgres.thaw();
    // Back once its pool reconnects: ready again within seconds (on a busy machine, more than
    // the poll's default second).
    await expect
      .poll(async () => (await stack.app.request("/readyz")).status, { timeout: 15_000 })
      .toBe(200);
    const again = await post(headers);
    expect(again.status).toBe(200);
    expect(await used(nonce)).toBe(true);
  };

  it("hung before a paid check: 503 payment_record_unavailable within seconds, nothing charged, /readyz 503; paid once it answers again", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    postgres.freeze();
    const started = performance.now();
    const answer = await post(headers);
    const seconds = (performance.now() - started) / 1000;
    expect(answer.status).toBe(503);
    expect((await answer.json()).error.code).toBe("payment_record_unavailable");
    expect(seconds).toBeLessThan(20);
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    // The proxy's probe hears it too, within its own timeout, and sends traffic elsewhere.
    const probeStarted = performance.now();
    const readyz = await stack.app.request("/readyz");
    expect(readyz.status).toBe(503);
    expect(performance.now() - probeStarted).toBeLessThan(10_000);
    await thawThenPaysAgain({ headers, nonce });
  }, 90_000);

  it("hung while the check runs: 503 payment_record_unavailable, nothing charged; the same authorization pays once it answers again", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    duringEngine = () => postgres.freeze();
    const answer = await post(headers);
    expect(answer.status).toBe(503);
    expect((await answer.json()).error.code).toBe("payment_record_unavailable");
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    // The record's write, sent on a connection the pool already held, never lands late: the
    // retry the 503 invites is paid, not turned away as an authorization already presented.
    duringEngine = null;
    await thawThenPaysAgain({ headers, nonce });
  }, 90_000);

  it("hung once the record is written: the settlement is not sent (402 payment_not_recorded), nothing charged; the same authorization again is told its outcome is not decided, not that it paid", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    afterRecordWritten = () => postgres.freeze();
    const answer = await post(headers);
    expect(answer.status).toBe(402);
    const refusal = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    expect(refusal).toMatchObject({ success: false, errorReason: "payment_not_recorded" });
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    postgres.thaw();
    afterRecordWritten = null;
    // Its record stays open until the chain decides it: the same authorization is not run again,
    // and the payer is not told it paid.
    const again = await post(headers);
    expect(again.status).toBe(409);
    const { error } = await again.json();
    expect(error.code).toBe("authorization_used");
    expect(error.message).toContain("not decided yet");
    expect(error.message).not.toContain("already paid");
    expect(await used(nonce)).toBe(false);
    // A new authorization pays now that the database answers.
    const fresh = await signed();
    expect((await post(fresh.headers)).status).toBe(200);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
  }, 90_000);
});
