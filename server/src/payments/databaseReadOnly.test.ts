import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentResponseHeader } from "@x402/core/http";
import pg from "pg";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type LocalPostgres, startPostgres } from "../localServices/startPostgres";
import { openPostgresPaymentRecords } from "../paymentRecords/openPostgresPaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { exactPayments } from "./testing/exactPayments";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const price = BigInt(routePrices.check);

// The payment records in a real PostgreSQL (its own cluster) that stops taking writes while it
// still answers reads, as after a failover to a hot standby: `ALTER SYSTEM SET
// default_transaction_read_only` and a reload, which every session (the pool's open ones too)
// takes at its next transaction, refused with the standby's own error (25006).
describe("payment records in a PostgreSQL that turns read-only", () => {
  let stack: PaidStack;
  let postgres: LocalPostgres;
  let records: PaymentRecordStore;
  /** Runs once settlement is on chain, before its record is marked. */
  let beforeMarkSettled: (() => Promise<void>) | null = null;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: target,
    chain: "base",
  });

  /** Turns the database read-only (or back) and waits until a new session sees it. */
  const readOnly = async (on: boolean) => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      await admin.query("SET default_transaction_read_only = off");
      await admin.query(`ALTER SYSTEM SET default_transaction_read_only = ${on ? "on" : "off"}`);
      await admin.query("SELECT pg_reload_conf()");
      await expect
        .poll(async () => {
          const probe = new pg.Client({ connectionString: postgres.url });
          await probe.connect();
          const { rows } = await probe.query("SHOW default_transaction_read_only");
          await probe.end();
          return rows[0].default_transaction_read_only;
        })
        .toBe(on ? "on" : "off");
    } finally {
      await admin.end();
    }
  };
  const readyz = () => stack.app.request("/readyz");
  /** The payer's own client: it pins the key on its first 402 and fetches receipts. */
  const payerClient = () =>
    createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });

  beforeAll(async () => {
    postgres = await startPostgres();
    records = await openPostgresPaymentRecords(postgres.url);
    stack = await startPaidStack({
      world: shared.world,
      // The store as it is, with a moment between the charge on chain and its record's mark.
      records: {
        ...records,
        markSettled: async (key, tx) => {
          await beforeMarkSettled?.();
          return records.markSettled(key, tx);
        },
      },
    });
  });
  afterEach(async () => {
    beforeMarkSettled = null;
    await readOnly(false);
  });
  afterAll(async () => {
    await stack?.stop();
    await postgres?.stop();
  });

  it("read-only before a paid check: 503 payment_record_unavailable, nothing charged, /readyz 503 until it takes writes; then the same authorization pays", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    await readOnly(true);
    // Reads still answer: only a write shows the replica cannot take payments.
    expect(await records.count()).toBeGreaterThanOrEqual(0);
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(503);
    expect((await (await readyz()).json()).error).toEqual({
      code: "not_ready",
      message: "the payment records store does not answer or does not take writes",
    });
    const answer = await post(headers);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect((await answer.json()).error.code).toBe("payment_record_unavailable");
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);

    await readOnly(false);
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(200);
    expect((await post(headers)).status).toBe(200);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(price);
  }, 60_000);

  it("read-only between the charge and its record: the payer gets the report, and fetches it through /receipts while the database still refuses writes", async () => {
    const client = payerClient();
    const before = await stack.usdcBalance(payer.address);
    beforeMarkSettled = () => readOnly(true);
    const paid = await client.check({ address: target });
    beforeMarkSettled = null;
    // The charge is known (the facilitator answered its transaction): the report, not a 502
    // saying the payer "may have been charged".
    expect(paid).toMatchObject({ type: "report", charged: true, recovered: false });
    if (paid.type !== "report") return;
    expect(before - (await stack.usdcBalance(payer.address))).toBe(price);
    const nonce = (await records.unresolved(10)).find(
      (record) => record.payer === payer.address.toLowerCase(),
    )?.nonce as `0x${string}`;
    expect(await used(nonce)).toBe(true);
    expect(await records.byAuthorization({ payer: payer.address, nonce })).toMatchObject({
      status: "pending",
    });
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(503);

    // Still read-only: the chain shows the charge, so the receipt is the report, unmarked.
    const fetched = await client.receipt({ payer: payer.address, nonce });
    expect(fetched).toMatchObject({ type: "report", charged: true, report: paid.report });
    expect(await records.byAuthorization({ payer: payer.address, nonce })).toMatchObject({
      status: "pending",
    });

    // Writes again: the next ask marks the record settled with the charge's transaction.
    await readOnly(false);
    const again = await client.receipt({ payer: payer.address, nonce });
    expect(again).toMatchObject({ type: "report", report: paid.report });
    expect(await records.byAuthorization({ payer: payer.address, nonce })).toMatchObject({
      status: "settled",
      tx: paid.settlement.transaction.toLowerCase(),
    });
  }, 60_000);

  it("read-only under 20 concurrent paid checks: every charged payer gets the report; charged = reports fetchable = settled records once it takes writes", async () => {
    const payments = await Promise.all(Array.from({ length: 20 }, () => signed()));
    const before = await stack.usdcBalance(payer.address);
    let flipped: Promise<void> | null = null;
    // The first settlement to finish turns the database read-only under all the others.
    beforeMarkSettled = () => {
      flipped ??= readOnly(true);
      return flipped;
    };
    const answers = await Promise.all(payments.map(({ headers }) => post(headers)));
    beforeMarkSettled = null;
    const charged = (before - (await stack.usdcBalance(payer.address))) / price;
    const usedOnChain = (await Promise.all(payments.map(({ nonce }) => used(nonce)))).filter(
      Boolean,
    ).length;
    expect(charged).toBe(20n);
    expect(usedOnChain).toBe(20);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
      expect(settlement).toMatchObject({ success: true });
    }

    await readOnly(false);
    // Each payer fetches its report by its authorization; each ask marks its record.
    for (const { nonce } of payments) {
      const proof = await payer.signMessage({ message: receiptMessage(nonce.toLowerCase()) });
      const receipt = await stack.app.request(
        `/receipts/${payer.address}/${nonce}?signature=${proof}`,
      );
      expect(receipt.status).toBe(200);
    }
    const settled = await Promise.all(
      payments.map(({ nonce }) => records.byAuthorization({ payer: payer.address, nonce })),
    );
    expect(settled.filter((record) => record?.status === "settled")).toHaveLength(20);
  }, 60_000);
});
