import type { FacilitatorClient } from "@x402/core/server";
import { HTTPFacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { createMetrics } from "../observability/createMetrics";
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
    });
    server = await serveWithDrain(app, { port: 0 });
  });
  afterAll(() => server?.drain(1_000));

  it("answers verify, settle and supported to the official client", async () => {
    const client = new HTTPFacilitatorClient({ url: server.url });
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
    const client = new HTTPFacilitatorClient({ url: server.url });
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
        headers: { "content-type": "application/json" },
        body,
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toMatch(/^invalid_(json|body)$/);
    }
  });

  it("answers a settlement that threw with a 500 that names nothing internal", async () => {
    outcome = async () => {
      throw new Error("connect ECONNREFUSED http://rpc.internal:8545/key-SECRET");
    };
    const response = await fetch(`${server.url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
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
