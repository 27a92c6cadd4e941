import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { SIGN_IN_WITH_X } from "@x402/extensions/sign-in-with-x";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { fixtureNow, paidAnswerFixture } from "../testing/paidAnswerFixture";
import { paidOnce } from "../testing/paidOnce";
import { signedInReread } from "./signedInReread";

// The server's real sign-in re-read is proven against the paid stack (server tests of signIn);
// here, that a challenge without Sign-In-With-X leads on to the usual payment, and that a
// re-read answer is taken only when it is this payer's report of the check asked.
describe("signedInReread", () => {
  it("answers null, sending nothing, when the challenge offers no sign-in", async () => {
    const { config, pin, server } = await paidOnce();
    const challenge = await server.fetch("http://api.test/check", { method: "POST" });
    const paymentRequired = decodePaymentRequiredHeader(
      challenge.headers.get("payment-required") ?? "",
    );
    const requirement = paymentRequired.accepts[0];
    if (requirement === undefined) throw new Error("no requirement");
    let posted = 0;
    const again = await signedInReread(config, {
      route: "/check",
      asked: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base" },
      paymentRequired,
      requirement,
      pin,
      post: async () => {
        posted += 1;
        return new Response("{}");
      },
    });
    expect(again).toBeNull();
    expect(posted).toBe(0);
  });

  /** A 402 offering Sign-In-With-X on Base, and the paid 200 the server re-reads for it. */
  async function reread(options: {
    signerKey: `0x${string}`;
    from?: string;
    forged?: boolean;
    /** What the server answers the sign-in instead of the re-read report. */
    answer?: Response;
  }) {
    const {
      answer: paidAnswer,
      settlement,
      pin,
    } = await paidAnswerFixture(options.forged ? { afterPayment: "forged" } : {});
    const answer = options.answer ?? paidAnswer;
    const requirement = {
      scheme: "exact",
      network: baseNetwork,
      asset: baseUsdc,
      amount: settlement.amount,
      payTo: settlement.payTo,
      maxTimeoutSeconds: 60,
      extra: {},
    };
    const paymentRequired: PaymentRequired = {
      x402Version: 2,
      resource: { url: "http://api.test/check", description: "check", mimeType: "" },
      accepts: [requirement],
      extensions: {
        [SIGN_IN_WITH_X]: {
          info: {
            domain: "api.test",
            uri: "http://api.test/check",
            version: "1",
            nonce: "a1b2c3d4e5f6a7b8",
            issuedAt: fixtureNow.toISOString(),
          },
          supportedChains: [{ chainId: baseNetwork, type: "eip191" }],
        },
      },
    };
    const config = createPresendConfig({
      url: "http://api.test",
      signer: privateKeyToAccount(options.signerKey),
      pinStore: createMemoryPinStore(),
      now: () => fixtureNow,
    });
    const posted: Array<Record<string, string>> = [];
    return {
      posted,
      result: await signedInReread(config, {
        route: "/check",
        asked: {
          address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
          chain: "base",
          ...(options.from !== undefined && { from: options.from }),
        },
        paymentRequired,
        requirement,
        pin,
        post: async (headers) => {
          posted.push(headers);
          return answer.clone();
        },
      }),
    };
  }
  // The key paidAnswerFixture paid with: the re-read report's settlement names its address.
  const paidWith = `0x${"55".repeat(32)}` as const;

  it("answers this payer's earlier report of the check asked, signed in, charged earlier", async () => {
    const { result, posted } = await reread({ signerKey: paidWith });
    expect(result).toMatchObject({ type: "report", signedIn: true, recovered: true });
    expect(Object.keys(posted[0] ?? {})).toEqual([SIGN_IN_WITH_X]);
  });

  it("answers null for a report settled by another payer: this wallet has paid nothing for it", async () => {
    const { result, posted } = await reread({ signerKey: `0x${"77".repeat(32)}` });
    expect(posted).toHaveLength(1);
    expect(result).toBeNull();
  });

  it("answers null for a report without the sender asked: that check is still to be paid", async () => {
    const { result, posted } = await reread({
      signerKey: paidWith,
      from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    });
    expect(posted).toHaveLength(1);
    expect(result).toBeNull();
  });

  it("answers null for an altered report: nothing was paid now, so the check goes on to pay", async () => {
    const { result, posted } = await reread({ signerKey: paidWith, forged: true });
    expect(posted).toHaveLength(1);
    expect(result).toBeNull();
  });

  it("answers not charged, never going on to pay, when the server could not check the sign-in (503 signature_unverifiable)", async () => {
    const unverifiable = new Response(
      JSON.stringify({
        error: { code: "signature_unverifiable", message: "Base could not be read." },
      }),
      { status: 503, headers: { "content-type": "application/json", "retry-after": "5" } },
    );
    const { result, posted } = await reread({ signerKey: paidWith, answer: unverifiable });
    expect(posted).toHaveLength(1);
    expect(result).toMatchObject({
      type: "not_charged",
      code: "signature_unverifiable",
      status: 503,
      charged: false,
    });
    expect(result?.type === "not_charged" && result.message).toContain("in 5 s");
  });

  it("answers null on a sign_in_unavailable 503: the sign-in store is down, paying is what the server asks", async () => {
    const unavailable = new Response(
      JSON.stringify({ error: { code: "sign_in_unavailable", message: "Redis is down." } }),
      { status: 503, headers: { "content-type": "application/json" } },
    );
    const { result } = await reread({ signerKey: paidWith, answer: unavailable });
    expect(result).toBeNull();
  });
});
