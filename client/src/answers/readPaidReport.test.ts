import { encodePaymentResponseHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { paidAnswerFixture } from "../testing/paidAnswerFixture";
import { readPaidReport } from "./readPaidReport";

/** The same answer with another body or headers. */
const altered = async (
  answer: Response,
  change: { body?: string; headers?: Record<string, string> },
) => {
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(change.headers ?? {})) headers.set(name, value);
  return new Response(change.body ?? (await answer.text()), { status: answer.status, headers });
};

describe("readPaidReport", () => {
  it("trusts a report whose signature and receipt verify with the pinned key", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    expect(await readPaidReport(answer, settlement, pin, "/check")).toMatchObject({
      type: "report",
      signature: "verified",
      receipt: "verified",
      recovered: false,
      charged: true,
      report: { verdict: { headline: "Active wallet" } },
    });
  });

  it("calls an altered report forged, charged", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture({ afterPayment: "forged" });
    expect(await readPaidReport(answer, settlement, pin, "/check")).toMatchObject({
      type: "forged",
      charged: true,
      settlement,
    });
  });

  it("calls a report without its signed receipt forged, charged", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const withoutReceipt = await altered(answer, {
      headers: {
        "PAYMENT-RESPONSE": encodePaymentResponseHeader({
          success: true,
          transaction: settlement.transaction,
          network: settlement.network as `${string}:${string}`,
          payer: settlement.payer,
        }),
      },
    });
    expect(await readPaidReport(withoutReceipt, settlement, pin, "/check")).toMatchObject({
      type: "forged",
      charged: true,
      message: "The payment response carries no signed receipt.",
    });
  });

  it("says a body that is no report is unreadable (to be fetched again), and a /check report is no /deep one", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const garbled = await altered(answer.clone(), { body: "<html>oops</html>" });
    expect(await readPaidReport(garbled, settlement, pin, "/check")).toEqual({
      type: "unreadable",
    });
    expect(await readPaidReport(answer, settlement, pin, "/deep")).toEqual({ type: "unreadable" });
  });
});
