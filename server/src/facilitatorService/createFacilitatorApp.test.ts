import type { FacilitatorClient } from "@x402/core/server";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { createMetrics } from "../observability/createMetrics";
import { createFacilitatorClient } from "../payments/facilitator/createFacilitatorClient";
import { createFacilitatorApp } from "./createFacilitatorApp";

const requirements: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};
const payload: PaymentPayload = {
  x402Version: 2,
  accepted: requirements,
  payload: { signature: "0x00", authorization: {} },
};

const authToken = "a-fleet-secret-of-at-least-32-characters";
const authorized = { "content-type": "application/json", authorization: `Bearer ${authToken}` };
const validAuthorization = {
  from: "0x9Cb2e6859F097014298CC31c8d39D4217502960f",
  to: requirements.payTo,
  value: "10000",
  validAfter: "0",
  validBefore: "1900000000",
  nonce: `0x${"cd".repeat(32)}`,
};

// The facilitator behind the HTTP surface is faked here; the scale test runs the real one.
function fakeFacilitator(settle: () => Promise<SettleResponse>): FacilitatorClient {
  return {
    verify: async () => ({ isValid: true, payer: "0x9Cb2e6859F097014298CC31c8d39D4217502960f" }),
    settle,
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:8453" }],
      extensions: [],
      signers: {},
    }),
  };
}

describe("the facilitator over HTTP, as the official HTTPFacilitatorClient calls it", () => {
  let server: DrainingServer;
  let outcome: () => Promise<SettleResponse>;
  const metrics = createMetrics();
  beforeAll(async () => {
    const app = createFacilitatorApp({
      facilitator: fakeFacilitator(() => outcome()),
      logger: pino({ level: "silent" }),
      metrics,
      readiness: async () => ({ ready: true }),
      authToken,
    });
    server = await serveWithDrain(app, { port: 0 });
  });
  afterAll(() => server?.drain(1_000));

  it("answers verify, settle and supported to the official client", async () => {
    const client = await createFacilitatorClient({
      type: "remote",
      url: server.url,
      auth: { type: "bearer", token: authToken },
    });
    outcome = async () => ({
      success: true,
      transaction: `0x${"ab".repeat(32)}`,
      network: "eip155:8453",
      payer: "0x9Cb2e6859F097014298CC31c8d39D4217502960f",
    });
    expect((await client.getSupported()).kinds[0]).toMatchObject({ scheme: "exact" });
    expect(await client.verify(payload, requirements)).toMatchObject({ isValid: true });
    expect(await client.settle(payload, requirements)).toMatchObject({ success: true });
    expect(await metrics.registry.getSingleMetricAsString("presend_settlements_total")).toContain(
      'outcome="settled"} 1',
    );
  });

  it("answers a failed settlement with a stable code and a short message, nothing upstream", async () => {
    const client = await createFacilitatorClient({
      type: "remote",
      url: server.url,
      auth: { type: "bearer", token: authToken },
    });
    // What viem says when a settlement transaction fails: the RPC URL, the raw transaction, ~1 KB.
    const upstream = `TransactionExecutionError: Execution reverted with reason: FiatTokenV2: invalid signature.\nRequest Arguments:\n  from: 0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350\n  data: 0x02f8${"ab".repeat(400)}\nURL: http://rpc.internal:8545/key-SECRET\nVersion: viem@2`;
    for (const [errorReason, expected] of [
      ["transaction_failed", "transaction_failed"],
      ["Execution reverted: FiatTokenV2", "settlement_failed"],
      [undefined, "settlement_failed"],
    ] as const) {
      outcome = async () => ({
        success: false,
        ...(errorReason !== undefined && { errorReason }),
        errorMessage: upstream,
        transaction: "",
        network: "eip155:8453",
      });
      const result = await client.settle(payload, requirements);
      expect(result).toMatchObject({ success: false, errorReason: expected });
      expect(result.errorMessage?.length).toBeLessThan(80);
      expect(JSON.stringify(result)).not.toMatch(/SECRET|rpc\.internal|0x02f8|viem/);
    }
  });

  it("refuses bodies that are not x402 requests with the JSON error contract", async () => {
    for (const body of ["{not json", JSON.stringify({ x402Version: 2 }), JSON.stringify([1])]) {
      const response = await fetch(`${server.url}/settle`, {
        method: "POST",
        headers: authorized,
        body,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toMatch(/^invalid_(json|body)$/);
    }
  });

  it("refuses a request without the fleet's token, or with another, before reading it: 401 facilitator_unauthorized; the probes stay open", async () => {
    let settled = 0;
    outcome = async () => {
      settled++;
      throw new Error("must not be reached");
    };
    const body = JSON.stringify({
      x402Version: 2,
      paymentPayload: {
        ...payload,
        payload: { signature: "0x00", authorization: validAuthorization },
      },
      paymentRequirements: requirements,
    });
    const anyone = new HTTPFacilitatorClient({ url: server.url });
    await expect(anyone.getSupported()).rejects.toThrow();
    for (const authorization of [
      undefined,
      "Bearer wrong-token",
      `Basic ${authToken}`,
      authToken,
    ]) {
      for (const path of ["/settle", "/verify"]) {
        const response = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(authorization !== undefined && { authorization }),
          },
          body,
        });
        expect(response.status).toBe(401);
        expect((await response.json()).error.code).toBe("facilitator_unauthorized");
      }
    }
    expect(settled).toBe(0);
    for (const probe of ["/livez", "/readyz"]) {
      expect((await fetch(`${server.url}${probe}`)).status).toBe(200);
    }
  });

  it("refuses a body over 64 KB, counted in bytes, before the facilitator is asked: 413 body_too_large", async () => {
    let settled = 0;
    outcome = async () => {
      settled++;
      throw new Error("must not be reached");
    };
    // 33,000 two-byte characters: 66,000 bytes, though fewer than 64 K characters.
    const body = JSON.stringify({
      x402Version: 2,
      paymentPayload: { ...payload, padding: "\u00e9".repeat(33_000) },
      paymentRequirements: requirements,
    });
    expect(body.length).toBeLessThan(64 * 1024);
    const response = await fetch(`${server.url}/settle`, {
      method: "POST",
      headers: authorized,
      body,
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("body_too_large");
    expect(settled).toBe(0);
  });

  it("refuses valid requirements with a payload that is not an x402 payment (400 invalid_body), settling nothing", async () => {
    let settled = 0;
    outcome = async () => {
      settled++;
      throw new Error("must not be reached");
    };
    const badPayloads = [
      { ...payload, x402Version: "two" },
      { ...payload, accepted: undefined },
      { ...payload, payload: "not an object" },
      null,
    ];
    for (const paymentPayload of badPayloads) {
      const response = await fetch(`${server.url}/settle`, {
        method: "POST",
        headers: authorized,
        body: JSON.stringify({ x402Version: 2, paymentPayload, paymentRequirements: requirements }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe("invalid_body");
    }
    // The same requirements with a well-formed payload do reach the facilitator.
    const good = await fetch(`${server.url}/settle`, {
      method: "POST",
      headers: authorized,
      body: JSON.stringify({
        x402Version: 2,
        paymentPayload: payload,
        paymentRequirements: requirements,
      }),
    });
    expect(good.status).toBe(500);
    expect(settled).toBe(1);
  });

  it("answers a settlement that threw with a 500 that names nothing internal", async () => {
    outcome = async () => {
      throw new Error("connect ECONNREFUSED http://rpc.internal:8545/key-SECRET");
    };
    const response = await fetch(`${server.url}/settle`, {
      method: "POST",
      headers: authorized,
      body: JSON.stringify({
        x402Version: 2,
        paymentPayload: payload,
        paymentRequirements: requirements,
      }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text).error.code).toBe("internal_error");
    expect(text).not.toMatch(/SECRET|rpc\.internal|ECONNREFUSED/);
  });
});
