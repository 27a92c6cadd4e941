import type { FacilitatorClient } from "@x402/core/server";
import { x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { releaseFailedChannelSettlements } from "./releaseFailedChannelSettlements";

const network = "eip155:8453" as const;
const requirementsOf = (scheme: string): PaymentRequirements => ({
  scheme,
  network,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
  maxTimeoutSeconds: 60,
  extra: {},
});
const payloadOf = (scheme: string): PaymentPayload => ({
  x402Version: 2,
  accepted: requirementsOf(scheme),
  payload: {},
});

/** A resource server whose facilitator never answers a settlement (it throws, as at a deadline). */
function unansweredServer() {
  const facilitator = {
    verify: async () => ({ isValid: true }),
    settle: async () => {
      throw new Error("the facilitator did not answer within the deadline");
    },
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  } as unknown as FacilitatorClient;
  return new x402ResourceServer(facilitator);
}

/** recordSettlements' hook for a channel payment: the failure recovered, no upstream text out. */
const recoverEveryFailure = (server: x402ResourceServer) =>
  server.onSettleFailure(async () => ({
    recovered: true as const,
    result: {
      success: false,
      errorReason: "settlement_failed",
      transaction: "",
      network,
    },
  }));

describe("releaseFailedChannelSettlements", () => {
  it("frees the channel a failed channel settlement reserved, though a later hook recovers the failure", async () => {
    const server = unansweredServer();
    const cleared: PaymentPayload[] = [];
    releaseFailedChannelSettlements(
      server,
      { clearPendingRequest: async (payload) => void cleared.push(payload as PaymentPayload) },
      () => {},
    );
    recoverEveryFailure(server);
    const payload = payloadOf("batch-settlement");
    const result = await server.settlePayment(payload, requirementsOf("batch-settlement"));
    expect(result).toMatchObject({ success: false, errorReason: "settlement_failed" });
    expect(cleared).toEqual([payload]);
  });

  it("leaves exact payments alone, and reports a store that cannot free the channel without losing the recovered answer", async () => {
    const server = unansweredServer();
    const cleared: PaymentPayload[] = [];
    const errors: unknown[] = [];
    releaseFailedChannelSettlements(
      server,
      {
        clearPendingRequest: async (payload) => {
          cleared.push(payload as PaymentPayload);
          throw new Error("the channel store did not answer");
        },
      },
      (error) => errors.push(error),
    );
    recoverEveryFailure(server);
    await server.settlePayment(payloadOf("exact"), requirementsOf("exact"));
    expect(cleared).toEqual([]);
    const result = await server.settlePayment(
      payloadOf("batch-settlement"),
      requirementsOf("batch-settlement"),
    );
    expect(result).toMatchObject({ success: false, errorReason: "settlement_failed" });
    expect(cleared).toHaveLength(1);
    expect(String(errors[0])).toContain("the channel store did not answer");
  });
});
