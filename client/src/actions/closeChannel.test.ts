import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig, type PresendSigner } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { closeChannel } from "./closeChannel";

// The refund itself (what the chain sends back, what the spend cap gets back) runs against the
// paid stack in server/src/cli/channelCli.test.ts; here, what closing says when it cannot refund.
const account = privateKeyToAccount(`0x${"33".repeat(32)}`);
const channel = { voucherSigner: toClientEvmSigner(privateKeyToAccount(`0x${"44".repeat(32)}`)) };

/** The server's refund terms: the challenge GET /check answers (the channel's requirement). */
const refundTerms: PaymentRequired = {
  x402Version: 2,
  resource: {
    url: "http://api.test/check",
    description: "refund",
    mimeType: "application/json",
  },
  accepts: [
    {
      scheme: "batch-settlement",
      network: baseNetwork,
      asset: baseUsdc,
      amount: "10000",
      payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
      maxTimeoutSeconds: 60,
      extra: {
        name: "USD Coin",
        version: "2",
        receiverAuthorizer: "0x8fE5995D4D5135D9bbd8988c99D98E76477B6E52",
        withdrawDelay: 900,
      },
    },
  ],
};
const terms = encodePaymentRequiredHeader(refundTerms);

describe("closeChannel", () => {
  it("fails without a channel or without a paying key, asking nothing", async () => {
    let requests = 0;
    const fetch = async () => {
      requests += 1;
      return new Response("{}");
    };
    const pinStore = createMemoryPinStore();
    const noChannel = createPresendConfig({
      url: "http://api.test",
      pinStore,
      signer: account,
      fetch,
    });
    const noSigner = createPresendConfig({ url: "http://api.test", pinStore, channel, fetch });
    for (const config of [noChannel, noSigner]) {
      expect(await closeChannel(config)).toEqual({
        type: "failed",
        message: "No payment channel is configured.",
      });
    }
    expect(requests).toBe(0);
  });

  it("without a channel never asks the wallet, so a locked one leaves no refusal unhandled", async () => {
    let asked = 0;
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      signer: async (): Promise<PresendSigner> => {
        asked += 1;
        throw new Error("the wallet is locked");
      },
    });
    expect(await closeChannel(config)).toEqual({
      type: "failed",
      message: "No payment channel is configured.",
    });
    expect(asked).toBe(0);
  });

  it("says why when the wallet cannot be had, and asks it again next time", async () => {
    let asked = 0;
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      channel,
      signer: async (): Promise<PresendSigner> => {
        asked += 1;
        throw new Error("the wallet is locked");
      },
    });
    expect(await closeChannel(config)).toEqual({
      type: "failed",
      message: "No paying key: the wallet is locked",
    });
    await closeChannel(config);
    expect(asked).toBe(2);
  });

  it("a refund the server cannot take is a failure, not a close", async () => {
    const asked: { url: string; redirect: RequestRedirect | undefined }[] = [];
    let status = 500;
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      channel,
      signer: account,
      fetch: async (url, init) => {
        asked.push({ url: String(url), redirect: init?.redirect });
        return Response.json({ error: { code: "internal", message: "No." } }, { status });
      },
    });
    expect(await closeChannel(config)).toEqual({
      type: "failed",
      message:
        "The server did not offer a refund: it answered HTTP 500 where its refund terms (a 402) were expected. Nothing was signed or sent; the deposit stays in the channel, and the server refunds an idle channel on its own.",
    });
    // No refund route at all (the operator turned channels off): the server refunds them itself,
    // so the deposit is not said to stay.
    status = 404;
    expect(await closeChannel(config)).toEqual({
      type: "failed",
      message:
        "The server no longer offers payment channels here (HTTP 404 where its refund terms were expected), so no refund was asked for and nothing was signed or sent. A server that stops offering channels sends back what is left of their deposits on its own.",
    });
    asked.pop();
    // The refund goes to the check route through the config's transport, never following a
    // redirect.
    expect(asked).toEqual([{ url: "http://api.test/check", redirect: "manual" }]);
  });

  it("with no channel opened since the last close says so, and signs and sends no refund", async () => {
    const asked: { method: string | undefined; payment: string | null }[] = [];
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      channel,
      signer: account,
      fetch: async (_url, init) => {
        asked.push({
          method: init?.method,
          payment: new Headers(init?.headers).get("payment-signature"),
        });
        return Response.json({}, { status: 402, headers: { "payment-required": terms } });
      },
    });
    expect(await closeChannel(config)).toEqual({
      type: "failed",
      message:
        "No payment channel is open here: no check was paid through one since the last close (or its record here was lost), so there is nothing to refund from here. A channel left without checks is refunded by the server on its own.",
    });
    // Only the refund terms were asked for: no refund voucher was signed or sent.
    expect(asked).toEqual([{ method: "GET", payment: null }]);
  });
  /** A close of a channel whose state here is `state`, against a server answering `answer`. */
  const closing = (
    state: { balance: string; chargedCumulativeAmount: string },
    answer: (payment: string | null) => Response,
  ) => {
    const asked: { method: string | undefined; payment: string | null }[] = [];
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      channel: {
        ...channel,
        // Every channel of this client is the one kept here (the package keys it by its id).
        storage: { get: async () => state, set: async () => {}, delete: async () => {} },
      },
      signer: account,
      fetch: async (_url, init) => {
        const payment = new Headers(init?.headers).get("payment-signature");
        asked.push({ method: init?.method, payment });
        return answer(payment);
      },
    });
    return { asked, close: () => closeChannel(config) };
  };
  const challenge = (required: unknown) =>
    Response.json(
      {},
      {
        status: 402,
        headers: { "payment-required": encodePaymentRequiredHeader(required as PaymentRequired) },
      },
    );
  const allSpent = "Nothing left to refund: the channel's deposit was all spent on checks.";

  it("a channel whose deposit the checks spent whole: nothing left to refund, in presend's words, no refund sent", async () => {
    const { asked, close } = closing({ balance: "50000", chargedCumulativeAmount: "50000" }, () =>
      challenge(refundTerms),
    );
    expect(await close()).toEqual({ type: "failed", message: allSpent, nothingLeft: true });
    expect(asked).toEqual([{ method: "GET", payment: null }]);
  });

  it("a server that says the channel holds nothing (spent, or refunded while idle): nothing left to refund, neither claimed", async () => {
    const { asked, close } = closing(
      { balance: "50000", chargedCumulativeAmount: "40000" },
      (payment) =>
        challenge(
          payment === null
            ? refundTerms
            : { ...refundTerms, error: "invalid_batch_settlement_evm_refund_no_balance" },
        ),
    );
    expect(await close()).toEqual({
      type: "failed",
      message:
        "Nothing left to refund: the channel holds none of its deposit any more (spent on checks, or already sent back by the server's refund of an idle channel).",
      nothingLeft: true,
    });
    expect(asked.map(({ payment }) => payment !== null)).toEqual([false, true]);
  });

  it("a refund challenge without an accepts list is refused in presend's words, nothing signed", async () => {
    const { asked, close } = closing({ balance: "50000", chargedCumulativeAmount: "40000" }, () =>
      challenge({ x402Version: 2, resource: refundTerms.resource }),
    );
    expect(await close()).toEqual({
      type: "failed",
      message:
        "The server's payment challenge is not an x402 v2 one (PaymentRequired), so no refund was made.",
    });
    expect(asked).toEqual([{ method: "GET", payment: null }]);
  });

  it("a 402 without a payment challenge is a refusal in presend's words, nothing signed", async () => {
    const { asked, close } = closing({ balance: "50000", chargedCumulativeAmount: "40000" }, () =>
      Response.json({}, { status: 402 }),
    );
    expect(await close()).toEqual({
      type: "failed",
      message:
        "The server refused the refund with a 402 that carries no payment challenge (no PAYMENT-REQUIRED header), so no refund was made. The deposit stays in the channel; the server refunds an idle channel on its own.",
    });
    expect(asked).toEqual([{ method: "GET", payment: null }]);
  });

  it("a server error after the signed refund says its outcome is unknown, never that nothing was refunded", async () => {
    const { asked, close } = closing(
      { balance: "50000", chargedCumulativeAmount: "40000" },
      (payment) =>
        payment === null
          ? challenge(refundTerms)
          : Response.json({ error: { code: "internal_error" } }, { status: 502 }),
    );
    expect(await close()).toEqual({
      type: "failed",
      message:
        "The server answered HTTP 502 to the signed refund, so whether it was made is not known here. Close again: it refunds what is left, or says that nothing is.",
    });
    expect(asked.map(({ payment }) => payment !== null)).toEqual([false, true]);
  });

  it("terms that offer no channel any more: no refund asked for, said in presend's words", async () => {
    const exactOnly = {
      ...refundTerms,
      accepts: refundTerms.accepts.map((requirement) => ({ ...requirement, scheme: "exact" })),
    };
    const { asked, close } = closing({ balance: "50000", chargedCumulativeAmount: "40000" }, () =>
      challenge(exactOnly),
    );
    expect(await close()).toEqual({
      type: "failed",
      message:
        "The server no longer offers payment channels on this route, so no refund was asked for. It refunds an idle channel on its own.",
    });
    expect(asked).toEqual([{ method: "GET", payment: null }]);
  });
});
