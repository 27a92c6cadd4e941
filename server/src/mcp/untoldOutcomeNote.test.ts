import type { PaidResult } from "@presend/client";
import { exampleReport } from "@presend/client/exampleReport";
import type { DeepReport, Report } from "@presend/shared/api/report";
import { describe, expect, it } from "vitest";
import { untoldOutcomeNote } from "./untoldOutcomeNote";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const;
const nonce = `0x${"ab".repeat(32)}` as const;
const transaction = `0x${"cd".repeat(32)}` as const;
const asked = { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base" };
const settlement = { transaction, network: "eip155:8453", payer, amount: "10000", payTo: payer };

describe("untoldOutcomeNote", () => {
  it("names the receipt id of a charged report", () => {
    const outcome: PaidResult<Report | DeepReport> = {
      type: "report",
      report: exampleReport({ address: asked.address as `0x${string}`, checkedAt: new Date(0) }),
      settlement,
      signature: "verified",
      receipt: "verified",
      recovered: false,
      charged: true,
      paymentId: null,
    };
    expect(untoldOutcomeNote(outcome, "check", asked)).toBe(
      `An earlier check call with ${JSON.stringify(asked)} finished after its answer was given up: charged yes. Its report: call receipt with {"id":"${transaction}"} (free).`,
    );
  });

  it("names the authorization's nonce when the charge is unknown", () => {
    const outcome: PaidResult<Report | DeepReport> = {
      type: "unrecovered",
      message: "lost",
      charged: "unknown",
      settlement: null,
      authorization: { payer, nonce, amount: "10000", payTo: payer },
      recover: "GET /receipts",
      paymentId: "retry-id-0123456789",
    };
    expect(untoldOutcomeNote(outcome, "deep", asked)).toContain(
      `charged unknown, no report yet. Its report, if it was charged: call receipt with {"id":"${nonce}"}`,
    );
  });

  it("says nothing of an outcome that charged nothing", () => {
    const outcome: PaidResult<Report | DeepReport> = {
      type: "not_charged",
      code: "chain_unavailable",
      status: 503,
      message: "no",
      charged: false,
      paymentId: null,
    };
    expect(untoldOutcomeNote(outcome, "check", asked)).toBeNull();
  });
});
