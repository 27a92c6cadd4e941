import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig, type PresendSigner } from "../createPresendConfig";
import { exampleReport } from "../exampleReport";
import { createMemoryPinStore } from "../PinStore";
import type { ClientEvent } from "../PresendResult";
import { applyPaymentPolicy } from "../policy/applyPaymentPolicy";
import { createSessionSpendCap } from "../SpendCap";
import { type FakePaidApiOptions, fakePaidApi } from "../testing/fakePaidApi";
import { payExact } from "./payExact";

const now = new Date("2025-06-01T12:00:00Z");
const price = routePrices.check;
const account = privateKeyToAccount(`0x${"88".repeat(32)}`);

/** An exact payment ready to sign: the stand-in's challenge through the policy. */
async function ready(api: Partial<FakePaidApiOptions> = {}, signer: PresendSigner = account) {
  const server = await fakePaidApi({
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    report: exampleReport({
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      checkedAt: now,
    }),
    now,
    ...api,
  });
  const events: ClientEvent[] = [];
  const spendCap = createSessionSpendCap(2n * price);
  const config = createPresendConfig({
    url: "http://api.test",
    signer,
    pinStore: createMemoryPinStore(),
    spendCap,
    fetch: server.fetch,
    now: () => now,
    onEvent: (event) => events.push(event),
  });
  const challenge = await server.fetch("http://api.test/check", { method: "POST" });
  const paymentRequired = decodePaymentRequiredHeader(
    challenge.headers.get("payment-required") ?? "",
  );
  const decision = await applyPaymentPolicy(config, "/check", paymentRequired);
  if (decision.type !== "accepted") throw new Error(decision.message);
  const post = (headers: Record<string, string>) =>
    config.send("/check", { method: "POST", headers, body: "{}" });
  const pay = () => {
    const sent = { paymentId: null as string | null };
    const outcome = payExact(
      config,
      {
        ...decision,
        route: "/check",
        paymentRequired,
        payer: Promise.resolve(signer),
        paymentId: undefined,
        post,
      },
      sent,
    );
    return outcome.then((result) => ({ result, paymentId: sent.paymentId }));
  };
  return { server, events, spendCap, pay };
}

describe("payExact", () => {
  it("pays, says settled before the report, and counts the price spent", async () => {
    const { pay, events, spendCap, server } = await ready();
    const { result, paymentId } = await pay();
    expect(result).toMatchObject({ type: "report", charged: true, receipt: "verified" });
    expect(paymentId).toMatch(/^pay_/);
    expect(events.map((event) => event.type)).toEqual(["pinned", "verified", "paying", "settled"]);
    // "paying" names what a caller stopped now needs: the receipt id and the retry's payment id.
    const settlement = result.type === "report" ? result.settlement : null;
    expect(events.find((event) => event.type === "paying")).toMatchObject({
      authorization: { payer: settlement?.payer, amount: String(price) },
      paymentId,
    });
    expect(spendCap.spent()).toBe(price);
    expect(server.payments()).toBe(1);
  });

  it("gives the cap back when the answer proves nothing was charged", async () => {
    const { pay, spendCap } = await ready({ afterPayment: "refused" });
    expect((await pay()).result).toMatchObject({ type: "not_charged", status: 402 });
    expect(spendCap.spent()).toBe(0n);
  });

  it("keeps the price counted when the answer was lost", async () => {
    const { pay, spendCap } = await ready({ afterPayment: "drop", receipts: "pending" });
    expect((await pay()).result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    expect(spendCap.spent()).toBe(price);
  });

  it("a wallet that refuses to sign: not charged, the cap given back, the cause kept", async () => {
    const refusing: PresendSigner = {
      ...account,
      signTypedData: async () => {
        throw new Error("User rejected the request.");
      },
    };
    const { pay, spendCap, server } = await ready({}, refusing);
    const { result, paymentId } = await pay();
    expect(result).toMatchObject({
      type: "not_charged",
      code: "signing_failed",
      cause: expect.any(Error),
    });
    expect(spendCap.spent()).toBe(0n);
    expect(server.payments()).toBe(0);
    expect(paymentId).toBeNull();
  });

  it("refuses what the spend cap cannot hold, before signing", async () => {
    const { pay, server } = await ready();
    await pay();
    await pay();
    expect((await pay()).result).toMatchObject({ type: "refused", code: "cap_reached" });
    expect(server.payments()).toBe(2);
  });
});
