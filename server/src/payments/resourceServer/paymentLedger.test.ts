import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSqlitePaymentRecords } from "../../paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import { type FaultyRpc, startFaultyRpc } from "../testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { receiptLocationHeader } from "./paymentLedger";

// Two faults at once on a real paid request over the local chain: the facilitator's answer is
// lost after the broadcast (the chain goes down behind a proxy), and the records store stops
// answering reads once the settlement step wrote the outcome. The payer was charged: the answer
// must say it may have been and where the report is, never a 402 a third-party client reads as
// "not paid". The store fault is a boundary fake around the real SQLite store.
const { world, lane } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

describe("paymentLedger when the payment record cannot be read after settlement", () => {
  let stack: PaidStack;
  let rpc: FaultyRpc;
  let store: PaymentRecordStore;
  /** Set by the settlement step's write of an unknown outcome: reads fail from then on. */
  let readsFailAfterUnknown = false;
  let readsFail = false;

  const failing = (inner: PaymentRecordStore): PaymentRecordStore => ({
    ...inner,
    markUnknown: async (key, tx) => {
      const written = await inner.markUnknown(key, tx);
      if (readsFailAfterUnknown) readsFail = true;
      return written;
    },
    byAuthorization: async (key) => {
      if (readsFail) throw new Error("the records database went away");
      return inner.byAuthorization(key);
    },
  });
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ address: target }),
    });
  const signPayment = async () => {
    const required = decodePaymentRequiredHeader(
      (await post()).headers.get("payment-required") ?? "",
    );
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const payload = await client.createPaymentPayload(required);
    const { nonce } = (payload.payload as { authorization: { nonce: string } }).authorization;
    return { header: encodePaymentSignatureHeader(payload), nonce };
  };

  beforeAll(async () => {
    rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    const dataDir = mkdtempSync(join(tmpdir(), "presend-ledger-"));
    store = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
    stack = await startPaidStack({
      world,
      dataDir,
      records: failing(store),
      paymentRpcUrl: rpc.url,
      confirmationTimeoutMs: 3_000,
    });
  });
  afterEach(() => {
    rpc.mode = "pass";
    readsFailAfterUnknown = false;
    readsFail = false;
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
    if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it("a lost facilitator answer and an unreadable record: 502 settlement_unknown naming where the report is, then the report there", async () => {
    const { header, nonce } = await signPayment();
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    rpc.mode = "downAfterSend";
    readsFailAfterUnknown = true;
    const response = await post({ "PAYMENT-SIGNATURE": header });
    rpc.mode = "pass";
    // The store did fail the ledger's read: the answer below is the one without a record.
    expect(readsFail).toBe(true);
    readsFail = false;

    expect(response.status).toBe(502);
    const receiptUrl = `${stack.publicUrl}/receipts/${payer.address.toLowerCase()}/${nonce.toLowerCase()}`;
    expect(response.headers.get(receiptLocationHeader)).toBe(receiptUrl);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("settlement_unknown");
    expect(body.error.message).toContain(`GET ${receiptUrl}?signature=`);
    expect(body.error.message).toContain("not known yet");
    expect(body.error.message).not.toMatch(/nothing was charged|records database/i);
    // It was charged: the chain shows the transfer the answer could not confirm.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + 10_000n);

    // Where the answer pointed, the report is served once the chain is read.
    const key = { payer: payer.address, nonce };
    expect(await store.byAuthorization(key)).toMatchObject({ status: "unknown" });
    expect(await stack.reconcile()).toMatchObject({ settled: 1 });
    const signature = await payer.signMessage({ message: receiptMessage(nonce.toLowerCase()) });
    const fetched = await stack.app.request(`${receiptUrl}?signature=${signature}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toMatchObject({
      nonce: nonce.toLowerCase(),
      report: { address: target },
    });
  });

  it("an unreadable record after a refusal that proves nothing was sent keeps the 402", async () => {
    // A spent authorization sent again while reads fail: the ledger cannot see its record, so
    // the request reaches x402, whose verification refuses it before anything runs.
    const { header } = await signPayment();
    const paid = await post({ "PAYMENT-SIGNATURE": header });
    expect(paid.status).toBe(200);
    readsFail = true;
    const replayed = await post({ "PAYMENT-SIGNATURE": header });
    readsFail = false;
    // A challenge without PAYMENT-RESPONSE: nothing was settled, and it is not called a charge.
    expect(replayed.status).toBe(402);
    expect(replayed.headers.get("payment-required")).not.toBeNull();
    expect(replayed.headers.get(receiptLocationHeader)).toBeNull();
  });
});
