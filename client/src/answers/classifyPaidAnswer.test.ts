import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { classifyPaidAnswer } from "./classifyPaidAnswer";

const requirement: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  asset: baseUsdc,
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  maxTimeoutSeconds: 60,
  extra: {},
};
const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const transaction = `0x${"ab".repeat(32)}`;

const settledHeader = (fields: { success: boolean; transaction: string; errorReason?: string }) =>
  encodePaymentResponseHeader({ network: baseNetwork, payer, ...fields });
const failedSettlement = (errorReason?: string) =>
  new Response("{}", {
    status: 402,
    headers: {
      "PAYMENT-RESPONSE": settledHeader({ success: false, transaction: "", errorReason }),
    },
  });
const error = (status: number, code: string, headers: Record<string, string> = {}) =>
  Response.json({ error: { code, message: `${code} said the server.` } }, { status, headers });

describe("classifyPaidAnswer: settled", () => {
  it("a 200 naming a settlement is settled, with the payer and the terms paid", async () => {
    const answer = new Response("{}", {
      status: 200,
      headers: { "PAYMENT-RESPONSE": settledHeader({ success: true, transaction }) },
    });
    expect(await classifyPaidAnswer(answer, requirement)).toEqual({
      type: "settled",
      settlement: {
        transaction,
        network: baseNetwork,
        payer,
        amount: "10000",
        payTo: requirement.payTo,
      },
    });
  });
});

describe("classifyPaidAnswer: not charged, only on proof", () => {
  it.each([
    ["a 402 refusing the payment before settling it", 402, "payment_required"],
    ["the server's own 400", 400, "invalid_address"],
    ["a payment id used with another body (409)", 409, "payment_id_conflict"],
    ["a 503 saying the chain was unreadable", 503, "chain_unavailable"],
    ["a 503 saying the payment network was unreadable", 503, "payment_network_unavailable"],
    [
      "a 503 saying the facilitator gave no answer to the verification",
      503,
      "facilitator_unavailable",
    ],
  ])("%s, with the server's code, status and message", async (_name, status, code) => {
    expect(await classifyPaidAnswer(error(status, code), requirement)).toEqual({
      type: "not_charged",
      code,
      status,
      message: `${code} said the server.`,
    });
  });

  it("a 402 whose settlement failed with no transaction sent names the reason code", async () => {
    const answer = new Response("{}", {
      status: 402,
      headers: {
        "PAYMENT-RESPONSE": settledHeader({
          success: false,
          transaction: "",
          errorReason: "insufficient_funds",
        }),
      },
    });
    expect(await classifyPaidAnswer(answer, requirement)).toMatchObject({
      type: "not_charged",
      code: "settlement_failed",
      status: 402,
      message: expect.stringContaining("(insufficient_funds)"),
    });
  });

  it("shows a short code only, never free text from upstream", async () => {
    const answer = new Response("{}", {
      status: 402,
      headers: {
        "PAYMENT-RESPONSE": settledHeader({
          success: false,
          transaction: "",
          errorReason: "rpc https://key@node.example failed",
        }),
      },
    });
    const classified = await classifyPaidAnswer(answer, requirement);
    expect(classified.type === "not_charged" && classified.message).toContain("(no reason code)");
  });

  it("shows a reason code of up to 64 characters, a longer or missing one as no code", async () => {
    const messageOf = async (errorReason?: string) => {
      const classified = await classifyPaidAnswer(failedSettlement(errorReason), requirement);
      return classified.type === "not_charged" ? classified.message : classified.type;
    };
    expect(await messageOf("a".repeat(64))).toContain(`(${"a".repeat(64)})`);
    expect(await messageOf("a".repeat(65))).toContain("(no reason code)");
    expect(await messageOf(undefined)).toContain("(no reason code)");
  });
});

describe("classifyPaidAnswer: a 402 refusing the payment names x402's reason", () => {
  // What the server answers when verification fails (the payer holds too little USDC, say): the
  // new challenge, its `error` the facilitator's reason, in PAYMENT-REQUIRED and as the body.
  const refusedWith = (reason: string) => {
    const challenge = {
      x402Version: 2,
      error: reason,
      resource: { url: "http://api.test/check", description: "", mimeType: "application/json" },
      accepts: [requirement],
    };
    return Response.json(challenge, {
      status: 402,
      headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge) },
    });
  };

  it("says the server refused the payment and why, not just 'HTTP 402'", async () => {
    expect(
      await classifyPaidAnswer(refusedWith("invalid_exact_evm_insufficient_balance"), requirement),
    ).toEqual({
      type: "not_charged",
      code: "invalid_exact_evm_insufficient_balance",
      status: 402,
      message:
        "The server refused the payment (invalid_exact_evm_insufficient_balance): nothing was charged.",
    });
  });

  it("passes on a short code only; free text reads as the bare status", async () => {
    expect(
      await classifyPaidAnswer(refusedWith("rpc https://key@node.example failed"), requirement),
    ).toEqual({ type: "not_charged", code: "http_402", status: 402, message: "HTTP 402" });
  });

  it("keeps the server's own error contract when the 402 carries one", async () => {
    const answer = Response.json(
      { error: { code: "payment_required", message: "The payment header was refused." } },
      {
        status: 402,
        headers: {
          "PAYMENT-REQUIRED": encodePaymentRequiredHeader({
            x402Version: 2,
            error: "payment_required",
            resource: { url: "http://api.test/check", description: "", mimeType: "" },
            accepts: [requirement],
          }),
        },
      },
    );
    expect(await classifyPaidAnswer(answer, requirement)).toEqual({
      type: "not_charged",
      code: "payment_required",
      status: 402,
      message: "The payment header was refused.",
    });
  });
});

describe("classifyPaidAnswer: unknown, whatever may follow a settlement", () => {
  it.each([
    ["a 500", () => error(500, "internal_error")],
    ["a 502 settlement_unknown", () => error(502, "settlement_unknown")],
    ["a proxy's 502 page", () => new Response("<html>Bad gateway</html>", { status: 502 })],
    ["a 503 that promises nothing", () => error(503, "payment_record_unavailable")],
    ["a 409 on the authorization (it may have paid)", () => error(409, "authorization_used")],
    ["a 400 that is not the error contract", () => new Response("bad", { status: 400 })],
    [
      "a redirect carrying the error contract",
      () => error(307, "invalid_address", { location: "http://x" }),
    ],
    [
      "a 402 whose settlement is still pending",
      () =>
        new Response("{}", {
          status: 402,
          headers: {
            "PAYMENT-RESPONSE": settledHeader({
              success: false,
              transaction,
              errorReason: "settlement_pending",
            }),
          },
        }),
    ],
    // With no transaction named, only the reason says a transfer may be in flight.
    [
      "a 402 whose settlement is still pending, no transaction named",
      () => failedSettlement("settlement_pending"),
    ],
    [
      "a 402 whose settlement outcome is unknown, no transaction named",
      () => failedSettlement("settlement_unknown"),
    ],
    [
      "a 402 whose failed settlement still names a transaction",
      () =>
        new Response("{}", {
          status: 402,
          headers: {
            "PAYMENT-RESPONSE": settledHeader({
              success: false,
              transaction,
              errorReason: "insufficient_funds",
            }),
          },
        }),
    ],
    [
      "a 402 whose PAYMENT-RESPONSE cannot be read",
      () => new Response("{}", { status: 402, headers: { "PAYMENT-RESPONSE": "not base64!" } }),
    ],
  ])("%s", async (_name, answer) => {
    expect(await classifyPaidAnswer(answer(), requirement)).toMatchObject({
      type: "unknown",
      settlement: null,
    });
  });

  it("a payment id still being served (409) may be charging for this check: unknown, not refused", async () => {
    expect(await classifyPaidAnswer(error(409, "payment_id_in_flight"), requirement)).toEqual({
      type: "unknown",
      settlement: null,
      message: expect.stringContaining("still being served"),
    });
  });

  it("a redirect is said to be one; a 500 naming a settlement is charged", async () => {
    const redirect = new Response(null, { status: 302, headers: { location: "http://x" } });
    expect(await classifyPaidAnswer(redirect, requirement)).toMatchObject({
      type: "unknown",
      message: "The paid request was answered with a redirect (not followed).",
    });
    const settledThenFailed = new Response("{}", {
      status: 500,
      headers: { "PAYMENT-RESPONSE": settledHeader({ success: true, transaction }) },
    });
    expect(await classifyPaidAnswer(settledThenFailed, requirement)).toMatchObject({
      type: "unknown",
      settlement: { transaction, payer },
      message: "The paid request was answered with HTTP 500.",
    });
  });

  it("only a 200 is settled: a 204 naming a settlement is charged, its report still to fetch", async () => {
    const noContent = new Response(null, {
      status: 204,
      headers: { "PAYMENT-RESPONSE": settledHeader({ success: true, transaction }) },
    });
    expect(await classifyPaidAnswer(noContent, requirement)).toMatchObject({
      type: "unknown",
      settlement: { transaction, payer },
    });
  });
});
