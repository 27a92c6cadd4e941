import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FaultMode, type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// The payment chain (Base) misbehaves in one way per test, behind a proxy between the server
// (facilitator and bookkeeping) and a real anvil chain. Each test states what the payer gets,
// what the chain shows was charged, and what the server recorded.
// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const internals = /127\.0\.0\.1:\d+|https?:\/\/|0x02f8|stack|at [\w.]+ \(/i;

describe("payment chain faults: what the payer gets, what is charged, what is recorded", () => {
  let stack: PaidStack;
  let rpc: FaultyRpc;

  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ address: target }),
    });
  /** Signs a fresh payment with the official client while the chain still behaves. */
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
  const balances = () =>
    Promise.all([
      stack.usdcBalance(payer.address),
      stack.usdcBalance(stack.world.accounts.payTo.address),
    ]);
  const expectNothingInternal = async (response: Response) => {
    // Our own public URL (where receipts are fetched) is the only URL an answer may name.
    const text = (await response.clone().text()).replaceAll(stack.publicUrl, "");
    expect(text).not.toMatch(internals);
    const settlement = response.headers.get("payment-response");
    if (settlement !== null) {
      expect(decodePaymentResponseHeader(settlement)).not.toHaveProperty("errorMessage");
    }
  };
  /** A payment while the chain is in `mode`: refused 503, nothing charged, nothing recorded. */
  const expectRefusedWhileDown = async (mode: FaultMode) => {
    const { header, nonce } = await signPayment();
    const before = await balances();
    const recordsBefore = await stack.records.count();
    rpc.mode = mode;
    const response = await post({ "PAYMENT-SIGNATURE": header });
    rpc.mode = "pass";
    expect(response.status).toBe(503);
    expect(await response.clone().json()).toMatchObject({
      error: { code: "payment_network_unavailable" },
    });
    await expectNothingInternal(response);
    expect(await balances()).toEqual(before);
    expect(await stack.records.count()).toBe(recordsBefore);
    expect(await stack.records.byAuthorization({ payer: payer.address, nonce })).toBe(undefined);
  };
  /** A payment while the chain is in `mode` that still settles: the report, charged, recorded. */
  const expectPaidDespite = async (mode: FaultMode) => {
    const { header, nonce } = await signPayment();
    const [payerBefore = 0n, payToBefore = 0n] = await balances();
    rpc.mode = mode;
    const response = await post({ "PAYMENT-SIGNATURE": header });
    rpc.mode = "pass";
    expect(response.status).toBe(200);
    await expectNothingInternal(response);
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "");
    expect(settlement).toMatchObject({ success: true });
    expect(await balances()).toEqual([payerBefore - 10_000n, payToBefore + 10_000n]);
    const record = await stack.records.byAuthorization({ payer: payer.address, nonce });
    expect(record).toMatchObject({ status: "settled", tx: settlement.transaction.toLowerCase() });
    expect(record?.report).toEqual(await response.json());
  };

  beforeAll(async () => {
    // Its payments go through a proxy of its own that takes the Base chain down for this file only.
    rpc = await startFaultyRpc(shared.world.chains.base.rpcUrl);
    stack = await startPaidStack({
      world: shared.world,
      paymentRpcUrl: rpc.url,
      confirmationTimeoutMs: 3_000,
    });
  });
  afterEach(() => {
    rpc.mode = "pass";
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
  });

  it("hang: every call hangs -> 503 payment_network_unavailable, nothing charged or recorded", () =>
    expectRefusedWhileDown("hang"));

  it("garbage: answers that are not JSON -> 503, nothing charged or recorded", () =>
    expectRefusedWhileDown("garbage"));

  it("http429: rate-limited -> 503, nothing charged or recorded", () =>
    expectRefusedWhileDown("http429"));

  it("wrongChainId: the RPC claims to be Ethereum -> 503, nothing verified, charged or recorded", async () => {
    // The usable-chain reading is shared for two seconds; let the last good one expire.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await expectRefusedWhileDown("wrongChainId");
  });

  it("hugeBody: 50 MB answers are cut at 1 MB -> 503, nothing charged, memory stays flat", async () => {
    const rssBefore = process.memoryUsage().rss;
    rpc.hugeBody = { answers: 0, bytesSent: 0 };
    await expectRefusedWhileDown("hugeBody");
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
    // Read up to the cap, then cancelled: of each 50 MB answer only the cap and what the
    // sockets hold in between leave the proxy, not the rest.
    expect(rpc.hugeBody.answers).toBeGreaterThan(0);
    const perAnswer = rpc.hugeBody.bytesSent / rpc.hugeBody.answers;
    expect(perAnswer).toBeLessThan(10 * 1024 * 1024);
  });

  it("receiptErrors: the receipt cannot be read after broadcast -> the report, charged once, recorded settled (from the AuthorizationUsed event)", () =>
    expectPaidDespite("receiptErrors"));

  it("dropSendRaw: the broadcast's answer is lost -> the report (the hash is known from the signed bytes), charged once, recorded settled", () =>
    expectPaidDespite("dropSendRaw"));

  it("swallowFirstSend: the broadcast never reaches the chain -> sent again, the report, charged once, recorded settled", () =>
    expectPaidDespite("swallowFirstSend"));

  it("downAfterSend: the chain goes down right after the broadcast -> 502 settlement_unknown naming the receipt, charged, recorded unknown, then reconciled and fetched by (payer, nonce)", async () => {
    const { header, nonce } = await signPayment();
    const [payerBefore = 0n, payToBefore = 0n] = await balances();
    rpc.mode = "downAfterSend";
    const response = await post({ "PAYMENT-SIGNATURE": header });
    expect(response.status).toBe(502);
    await expectNothingInternal(response);
    const body = await response.json();
    const receiptPath = `/receipts/${payer.address.toLowerCase()}/${nonce}`;
    expect(body).toMatchObject({ error: { code: "settlement_unknown" } });
    expect(body.error.message).toContain(receiptPath);
    expect(response.headers.get("presend-receipt")).toBe(`${stack.publicUrl}${receiptPath}`);
    // The chain (read directly) shows the charge; the server could not see it.
    expect(await balances()).toEqual([payerBefore - 10_000n, payToBefore + 10_000n]);
    const key = { payer: payer.address, nonce };
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "unknown" });

    const signature = await payer.signMessage({ message: receiptMessage(nonce) });
    const early = await stack.app.request(`${receiptPath}?signature=${signature}`);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: "settlement_unknown" } });

    rpc.mode = "pass";
    expect(await stack.reconcile()).toMatchObject({ settled: 1 });
    const record = await stack.records.byAuthorization(key);
    expect(record).toMatchObject({ status: "settled" });
    const fetched = await stack.app.request(`${receiptPath}?signature=${signature}`);
    expect(fetched.status).toBe(200);
    const receipt = await fetched.json();
    expect(receipt).toMatchObject({ tx: record?.tx, nonce, route: "/check", amount: "10000" });
    expect(receipt.report).toMatchObject({ address: target });
    // The same report by transaction, as before.
    const byTx = await stack.app.request(
      `/receipts/${record?.tx}?signature=${await payer.signMessage({ message: receiptMessage(record?.tx ?? "") })}`,
    );
    expect(byTx.status).toBe(200);
    // A retry of the same authorization is not run again: it points at the receipt.
    const retry = await post({ "PAYMENT-SIGNATURE": header });
    expect(retry.status).toBe(409);
    const refusal = await retry.json();
    expect(refusal).toMatchObject({ error: { code: "authorization_used" } });
    expect(refusal.error.message).toContain(receiptPath);
    expect(retry.headers.get("presend-receipt")).toBe(`${stack.publicUrl}${receiptPath}`);
    expect(await balances()).toEqual([payerBefore - 10_000n, payToBefore + 10_000n]);
  });
});
