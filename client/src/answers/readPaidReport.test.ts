import { encodePaymentResponseHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { paidAnswerFixture } from "../testing/paidAnswerFixture";
import { samplePin } from "../testing/pinStoreContract";
import { readPaidReport } from "./readPaidReport";

/** The client's config; its server answers the discovery document with `discovery`. */
const config = (discovery: () => Response = () => new Response("none", { status: 404 })) =>
  createPresendConfig({
    url: "http://api.test",
    pinStore: createMemoryPinStore(),
    fetch: async () => discovery(),
  });

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
    expect(await readPaidReport(config(), answer, settlement, pin, "/check")).toMatchObject({
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
    expect(await readPaidReport(config(), answer, settlement, pin, "/check")).toMatchObject({
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
    expect(await readPaidReport(config(), withoutReceipt, settlement, pin, "/check")).toMatchObject(
      {
        type: "forged",
        charged: true,
        message: "The payment response carries no signed receipt.",
      },
    );
  });

  it("says a body that is no report is unreadable (to be fetched again), and a /check report is no /deep one", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const garbled = await altered(answer.clone(), { body: "<html>oops</html>" });
    expect(await readPaidReport(config(), garbled, settlement, pin, "/check")).toEqual({
      type: "unreadable",
    });
    expect(await readPaidReport(config(), answer, settlement, pin, "/deep")).toEqual({
      type: "unreadable",
    });
  });

  it("verifies a report made before the pin moved with the key it replaced", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const moved = {
      ...samplePin,
      previous: [{ jwk: pin.jwk, fingerprint: pin.fingerprint, until: "2025-06-01T12:00:00Z" }],
    };
    expect(await readPaidReport(config(), answer, settlement, moved, "/check")).toMatchObject({
      type: "report",
      signature: "verified",
      receipt: "verified",
    });
  });

  it("calls a report by a key the pinned one never vouched for forged, charged, after asking the discovery document", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    let asked = 0;
    const read = await readPaidReport(
      config(() => {
        asked++;
        return new Response("none", { status: 404 });
      }),
      answer,
      settlement,
      samplePin,
      "/check",
    );
    expect(asked).toBe(1);
    expect(read).toMatchObject({
      type: "forged",
      charged: true,
      message: new RegExp(`signed by ${pin.jwk.kid}, neither the pinned key .* answered 404`),
    });
  });
});
