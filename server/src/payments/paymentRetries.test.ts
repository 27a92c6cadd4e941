import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { ReportSchema } from "@presend/shared/api/report";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "./startPaidStack";

const payer = privateKeyToAccount(devnetAccounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

describe("retries with an x402 payment-identifier (real anvil, official client)", () => {
  let stack: PaidStack;
  const httpClient = () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    return new x402HTTPClient(client);
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** A fresh EIP-3009 signature for `path`, carrying `paymentId` the way the extension says. */
  const signedWithId = async (path: string, body: unknown, paymentId: string) => {
    const client = httpClient();
    const challenge = await post(path, body);
    expect(challenge.status).toBe(402);
    const required = client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    expect(required.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
    appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
    const payload = await client.createPaymentPayload(required);
    return client.encodePaymentSignatureHeader(payload);
  };

  beforeAll(async () => {
    // Its own world, not the shared one: it settles payments, moving the shared accounts' balances
    // it asserts, and the facilitator numbers its transactions per process (two files settling with
    // one key would race).
    stack = await startPaidStack();
  });
  afterAll(() => stack?.stop());

  it("answers a retry with a fresh signature and the same id with the same report, charged once", async () => {
    const payTo = stack.world.accounts.payTo.address;
    const [payerBefore, payToBefore] = await Promise.all([
      stack.usdcBalance(payer.address),
      stack.usdcBalance(payTo),
    ]);
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await post("/check", body, await signedWithId("/check", body, paymentId));
    expect(first.status).toBe(200);
    const report = ReportSchema.parse(await first.json());
    const settlement = decodePaymentResponseHeader(first.headers.get("payment-response") ?? "");
    expect(settlement.success).toBe(true);

    // The same request, as after a lost answer: default chain written out differently is the same ask.
    const retry = await post(
      "/check",
      { address: target },
      await signedWithId("/check", { address: target }, paymentId),
    );
    expect(retry.status).toBe(200);
    const again = ReportSchema.parse(await retry.json());
    expect(again).toEqual(report);
    expect(again.checkedAt).toBe(report.checkedAt);
    expect(
      decodePaymentResponseHeader(retry.headers.get("payment-response") ?? "").transaction,
    ).toBe(settlement.transaction);
    expect(retry.headers.get("presend-report-signature")).toBeTruthy();

    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({
      status: "settled",
      tx: settlement.transaction.toLowerCase(),
      route: "/check",
    });
  });

  it("refuses the same id for a different request with 409 payment_id_conflict, charging nothing", async () => {
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await post("/check", body, await signedWithId("/check", body, paymentId));
    expect(first.status).toBe(200);
    const before = await stack.usdcBalance(payer.address);
    const count = await stack.records.count();

    for (const [path, other] of [
      ["/check", { address: target, chain: "arbitrum" }],
      ["/check", { address: devnetAccounts.payer.address }],
      ["/deep", body],
    ] as const) {
      const response = await post(path, other, await signedWithId(path, other, paymentId));
      expect(response.status).toBe(409);
      expect(response.headers.get("payment-response")).toBeNull();
      expect(await response.json()).toMatchObject({ error: { code: "payment_id_conflict" } });
    }
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    expect(await stack.records.count()).toBe(count);
  });

  it("lets the presend client retry a call with its payment id: the same report, charged once", async () => {
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    const before = await stack.usdcBalance(payer.address);
    const paymentId = generatePaymentId("retry_");
    const first = await client.check({ address: target, paymentId });
    const again = await client.check({ address: target, paymentId });
    expect(first).toMatchObject({ type: "report", charged: true });
    expect(again).toMatchObject({ type: "report", charged: true });
    if (first.type !== "report" || again.type !== "report") throw new Error("no report");
    expect(again.report.checkedAt).toBe(first.report.checkedAt);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    expect((await stack.records.byPaymentId(paymentId))?.status).toBe("settled");
  });
});
