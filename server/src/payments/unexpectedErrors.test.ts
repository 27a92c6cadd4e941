import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { receiptLocationHeader } from "./resourceServer/paymentLedger";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// An unforeseen error (a bug) on a real paid request over the local chain: the app's last-resort
// answer must say what the payment record says was charged, never "nothing was charged" unless
// it is known. The faults are boundary fakes: a middleware that throws once the paid answer is
// made, an engine that throws, a records store whose writes or reads fail on cue.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const body = { address: devnetAccounts.activeOnBase.address };
/** Text of the injected error: none of it may reach an answer. */
const secret = "boom at http://10.0.0.7:8545 key=0xdeadbeef";

describe("an unexpected error on a paid request", () => {
  let stack: PaidStack;
  let store: PaymentRecordStore;
  /** Throws (after this runs) once the next request's answer is made, in a middleware around every route. */
  let afterAnswer: (() => void) | null = null;
  let engineThrows = false;
  let markSettledFails = false;
  let readsFail = false;

  const failing = (store: PaymentRecordStore): PaymentRecordStore => ({
    ...store,
    markSettled: async (key, tx) => {
      if (markSettledFails) throw new Error("the records database went away");
      return store.markSettled(key, tx);
    },
    byAuthorization: async (key) => {
      if (readsFail) throw new Error("the records database went away");
      return store.byAuthorization(key);
    },
    byPaymentId: async (id) => {
      if (readsFail) throw new Error("the records database went away");
      return store.byPaymentId(id);
    },
  });
  const wrapEngine = (engine: Engine): Engine => ({
    check: async (input) => {
      if (engineThrows) throw new Error(secret);
      return engine.check(input);
    },
    deep: (input) => engine.deep(input),
  });

  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** A funded payer and its signed exact payment for /check. */
  const paying = async (name: string, paymentId?: string) => {
    const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-unexpected-${name}`));
    await fund(payer.address, 2n * price);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const offer = decodePaymentRequiredHeader((await post()).headers.get("payment-required") ?? "");
    if (paymentId !== undefined)
      appendPaymentIdentifierToExtensions(offer.extensions ?? {}, paymentId);
    const payload = await client.createPaymentPayload({
      ...offer,
      accepts: offer.accepts.filter((accept) => accept.scheme === "exact"),
    });
    const nonce = (payload.payload as { authorization: { nonce: string } }).authorization.nonce;
    const header = new x402HTTPClient(client).encodePaymentSignatureHeader(payload);
    return { payer, nonce, header };
  };
  const receiptUrl = (payer: PrivateKeyAccount, nonce: string) =>
    `${stack.publicUrl}/receipts/${payer.address.toLowerCase()}/${nonce.toLowerCase()}`;
  const errorOf = async (answer: Response) =>
    ((await answer.json()) as { error: { code: string; message: string } }).error;
  const expectNothingInternal = (message: string) => {
    expect(message).not.toContain("boom");
    expect(message).not.toContain("10.0.0.7");
    expect(message).not.toContain("records database");
    expect(message).not.toMatch(/\bat .*\.ts/);
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "presend-unexpected-"));
    store = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
    stack = await startPaidStack({
      world,
      dataDir,
      records: failing(store),
      wrapEngine,
      beforeRoutes: [
        (app) =>
          app.use("*", async (_c, next) => {
            await next();
            const fault = afterAnswer;
            if (fault === null) return;
            afterAnswer = null;
            fault();
            throw new Error(secret);
          }),
      ],
    });
  });
  afterEach(() => {
    afterAnswer = null;
    engineThrows = false;
    markSettledFails = false;
    readsFail = false;
  });
  afterAll(async () => {
    await stack?.stop();
    if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it("after a real charge: 502 settlement_unknown saying it was charged, naming the settlement and the receipt; /receipts serves the report", async () => {
    const { payer, nonce, header } = await paying("settled");
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    afterAnswer = () => {};
    const answer = await post(header);
    expect(answer.status).toBe(502);
    const error = await errorOf(answer);
    expect(error.code).toBe("settlement_unknown");
    expect(error.message).toContain(
      "Your payment was charged (PAYMENT-RESPONSE names the settlement)",
    );
    expect(error.message).toContain("an internal error stopped it");
    expect(error.message).not.toContain("nothing was charged");
    expectNothingInternal(error.message);
    const location = receiptUrl(payer, nonce);
    expect(answer.headers.get(receiptLocationHeader)).toBe(location);
    // An error answer, not the report: none of the report's own headers ride along on it.
    expect(answer.headers.get(reportSignatureHeader)).toBeNull();
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    const record = await store.byAuthorization({ payer: payer.address, nonce });
    expect(record).toMatchObject({ status: "settled" });
    expect(settlement).toMatchObject({ success: true, transaction: record?.tx });
    // Charged once, on chain.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);

    const proof = await payer.signMessage({ message: receiptMessage(nonce.toLowerCase()) });
    const fetched = await stack.app.request(`${location}?signature=${proof}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toMatchObject({ tx: record?.tx, report: record?.report });
  });

  it("after a real charge the record could not take: 502 saying the charge is not known yet and where to look", async () => {
    const { payer, nonce, header } = await paying("pending");
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    markSettledFails = true;
    afterAnswer = () => {};
    const answer = await post(header);
    expect(answer.status).toBe(502);
    const error = await errorOf(answer);
    expect(error.code).toBe("settlement_unknown");
    expect(error.message).toContain("whether your payment was charged is not known yet");
    expect(error.message).toContain(`GET ${receiptUrl(payer, nonce)}?signature=`);
    expectNothingInternal(error.message);
    expect(answer.headers.get(receiptLocationHeader)).toBe(receiptUrl(payer, nonce));
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);
    expect(await store.byAuthorization({ payer: payer.address, nonce })).toMatchObject({
      status: "pending",
    });
  });

  it("when the record cannot be read at all: the charge is unknown, never 'nothing was charged'", async () => {
    const { payer, nonce, header } = await paying("unreadable");
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    afterAnswer = () => {
      readsFail = true;
    };
    const answer = await post(header);
    readsFail = false;
    expect(answer.status).toBe(502);
    const error = await errorOf(answer);
    expect(error.code).toBe("settlement_unknown");
    expect(error.message).toContain("not known yet");
    expect(error.message).not.toContain("nothing was charged");
    expectNothingInternal(error.message);
    expect(answer.headers.get(receiptLocationHeader)).toBe(receiptUrl(payer, nonce));
    // It was charged: the unknown answer was the honest one.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);
  });

  it("a retry by payment id of a charged payment: the 502 names that payment's charge and receipt, never 'nothing was charged'", async () => {
    const paymentId = generatePaymentId();
    const first = await paying("retried", paymentId);
    const answered = await post(first.header);
    expect(answered.status).toBe(200);
    const charged = decodePaymentResponseHeader(answered.headers.get("payment-response") ?? "");
    // The payer lost that answer and asks again with the same id (and a fresh authorization).
    const retry = await paying("retried", paymentId);
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    afterAnswer = () => {};
    const answer = await post(retry.header);
    expect(answer.status).toBe(502);
    const error = await errorOf(answer);
    expect(error.code).toBe("settlement_unknown");
    expect(error.message).toContain("Your payment was charged");
    expect(answer.headers.get(receiptLocationHeader)).toBe(receiptUrl(first.payer, first.nonce));
    expect(decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "")).toMatchObject(
      { success: true, transaction: charged.transaction },
    );
    // The retry itself was not charged again.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore);
  });

  it("a failure before the charge (the engine throws): 500 'nothing was charged', and nothing was", async () => {
    const { payer, nonce, header } = await paying("uncharged");
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    engineThrows = true;
    const answer = await post(header);
    expect(answer.status).toBe(500);
    expect(await errorOf(answer)).toEqual({
      code: "internal_error",
      message: "Internal error; nothing was charged.",
    });
    expect(answer.headers.get(receiptLocationHeader)).toBeNull();
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore);
    expect(await stack.usdcBalance(payer.address)).toBe(2n * price);
    expect(await store.byAuthorization({ payer: payer.address, nonce })).toBeUndefined();
  });

  it("a free route's failure still says nothing was charged; /receipts' says nothing about charging", async () => {
    afterAnswer = () => {};
    const free = await stack.app.request(`/validate?address=${body.address}`);
    expect(free.status).toBe(500);
    expect(await errorOf(free)).toEqual({
      code: "internal_error",
      message: "Internal error; nothing was charged.",
    });

    afterAnswer = () => {};
    const receipt = await stack.app.request(
      `/receipts/${devnetAccounts.activeOnBase.address.toLowerCase()}/0x${"11".repeat(32)}`,
    );
    expect(receipt.status).toBe(500);
    const error = await errorOf(receipt);
    expect(error.code).toBe("internal_error");
    expect(error.message).not.toMatch(/charg/i);
    expectNothingInternal(error.message);
  });

  it("/receipts answers 500 when the payment records cannot be read, and its OpenAPI operations list that 500", async () => {
    readsFail = true;
    const receipt = await stack.app.request(
      `/receipts/${devnetAccounts.activeOnBase.address.toLowerCase()}/0x${"11".repeat(32)}`,
    );
    expect(receipt.status).toBe(500);
    const error = await errorOf(receipt);
    expect(error.code).toBe("internal_error");
    expect(error.message).not.toMatch(/charg/i);
    expectNothingInternal(error.message);
    readsFail = false;
    const document = await (await stack.app.request("/openapi.json")).json();
    for (const path of ["/receipts/{tx}", "/receipts/{payer}/{nonce}"]) {
      expect(Object.keys(document.paths[path].get.responses)).toContain("500");
    }
  });
});
