import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../http/appEnv";
import { createMemoryInFlightLock } from "../../paymentRecords/createMemoryInFlightLock";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { createPaymentRecords } from "../records/paymentRecords";
import { settlementUnknown } from "../settlement/recordSettlements";
import { paymentLedger, receiptLocationHeader } from "./paymentLedger";

// The ledger between a paid request and x402 when the payment record cannot be read once x402
// has answered: only the answer itself can say whether a settlement may have run. The records
// store and the answer x402 gives are faked (the boundaries); the ledger is the real one.
const sample = samplePaymentRecord(1);
const publicUrl = "https://presend.example";
const receiptUrl = `${publicUrl}/receipts/${sample.payer.toLowerCase()}/${sample.nonce.toLowerCase()}`;
const network = "eip155:8453";
const settlement = (fields: { success: boolean; errorReason?: string; transaction?: string }) =>
  encodePaymentResponseHeader({
    network,
    transaction: "",
    ...fields,
  } as Parameters<typeof encodePaymentResponseHeader>[0]);
const challenge = encodePaymentRequiredHeader({
  x402Version: 2,
  error: "invalid_exact_evm_payload_signature",
  resource: { url: `${publicUrl}/check`, description: "", mimeType: "application/json" },
  accepts: [],
});

/** One paid request whose x402 answer is `answer`, with the record unreadable once it ran. */
async function ledgerAnswer(answer: () => Response, refusedBeforePayment = false) {
  const store = createMemoryPaymentRecords();
  let ran = false;
  const records = createPaymentRecords({
    store: {
      ...store,
      byAuthorization: async (key) => {
        if (ran) throw new Error("the records database went away");
        return store.byAuthorization(key);
      },
    },
    chain: fakePaymentChain({ now: sample.validBefore - 30, used: new Map() }),
  });
  const app = new Hono<AppEnv>();
  app.post(
    "/check",
    async (c, next) => {
      c.set("payment", {
        authorization: {
          payer: sample.payer,
          nonce: sample.nonce,
          payTo: sample.payTo,
          value: 10_000n,
          validAfter: 0n,
          validBefore: BigInt(sample.validBefore),
        },
        paymentId: null,
        requestHash: "h",
      });
      await next();
    },
    paymentLedger({
      records,
      lock: createMemoryInFlightLock(),
      publicUrl,
      settlementReceipt: async () => ({}),
      onError: () => {},
    }),
    (c) => {
      ran = true;
      if (refusedBeforePayment) c.set("refusedBeforePayment", true);
      return answer();
    },
  );
  return app.request("/check", { method: "POST" });
}

const expectChargeNotKnown = async (response: Response) => {
  expect(response.status).toBe(502);
  expect(response.headers.get(receiptLocationHeader)).toBe(receiptUrl);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("settlement_unknown");
  expect(body.error.message).not.toMatch(/nothing was charged/i);
};

describe("paymentLedger when the record cannot be read after x402 answered", () => {
  it.each([
    // x402's bare 402 when its settlement step threw: the settlement may have gone out.
    ["a bare 402 (settlement threw)", () => new Response("{}", { status: 402 })],
    ["a 500", () => new Response("{}", { status: 500 })],
    [
      "a settlement_unknown refusal",
      () =>
        new Response("{}", {
          status: 402,
          headers: {
            "payment-response": settlement({ success: false, errorReason: settlementUnknown }),
          },
        }),
    ],
    [
      "a PAYMENT-RESPONSE that cannot be read",
      () => new Response("{}", { status: 402, headers: { "payment-response": "%%%" } }),
    ],
  ])(
    "%s may follow a charge: 502 settlement_unknown naming the receipt, never a 402",
    async (_, answer) => {
      await expectChargeNotKnown(await ledgerAnswer(answer));
    },
  );

  it.each([
    [
      "a challenge (verification refused the payment)",
      () => new Response("{}", { status: 402, headers: { "payment-required": challenge } }),
      402,
    ],
    [
      "a refusal naming no charge",
      () =>
        new Response("{}", {
          status: 402,
          headers: {
            "payment-response": settlement({ success: false, errorReason: "settlement_failed" }),
          },
        }),
      402,
    ],
    ["the route's own 400", () => new Response("{}", { status: 400 }), 400],
  ])("%s proves nothing was sent: the answer stands", async (_, answer, status) => {
    const response = await ledgerAnswer(answer);
    expect(response.status).toBe(status);
    expect(response.headers.get(receiptLocationHeader)).toBeNull();
  });

  it("a paid 200 naming its settlement stands as the report", async () => {
    const tx = `0x${"ab".repeat(32)}`;
    const response = await ledgerAnswer(
      () =>
        new Response(JSON.stringify({ address: "0x" }), {
          status: 200,
          headers: {
            "content-type": "application/json",
            "payment-response": settlement({ success: true, transaction: tx }),
          },
        }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get(receiptLocationHeader)).toBeNull();
  });

  it("the handler's own refusal before the payment was taken stands, even as a 5xx", async () => {
    const refusal = { error: { code: "payment_record_unavailable", message: "not taken" } };
    const response = await ledgerAnswer(
      () => new Response(JSON.stringify(refusal), { status: 503 }),
      true,
    );
    expect(response.status).toBe(503);
    expect(response.headers.get(receiptLocationHeader)).toBeNull();
  });
});
