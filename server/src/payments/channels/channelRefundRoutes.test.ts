import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { Validator } from "@seriousme/openapi-schema-validator";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// GET on the paid routes, as the API offering channels serves it on a payment lane of the shared
// world: the cooperative refund @x402/evm's client asks for (a 402 with the channel terms, then a
// zero-charge refund voucher answered 200 with the refund on chain), 405 for a GET carrying any
// other payment (nothing settled), and both operations in the OpenAPI document.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;

type Operation = {
  tags?: string[];
  security?: unknown[];
  summary?: string;
  "x-payment-info"?: unknown;
  responses?: Record<string, unknown>;
};

describe("GET /check and GET /deep: a payment channel's refund", () => {
  let stack: PaidStack;
  const viaStack = async (input: RequestInfo | URL, init?: RequestInit) =>
    stack.app.request(input instanceof Request ? input : new Request(input, init));

  beforeAll(async () => {
    stack = await startPaidStack({ world, receiverAuthorizerKey });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ["/check", "10000"],
    ["/deep", "50000"],
  ])(
    "GET %s without a payment answers the refund terms: a 402, batch-settlement only at %s",
    async (path, units) => {
      const answer = await stack.app.request(path);
      expect(answer.status).toBe(402);
      const header = answer.headers.get("payment-required");
      if (header === null) throw new Error("the 402 carries no PAYMENT-REQUIRED");
      const required = decodePaymentRequiredHeader(header);
      expect(required.accepts.map(({ scheme, amount }) => ({ scheme, amount }))).toEqual([
        { scheme: "batch-settlement", amount: units },
      ]);
      expect(required.accepts[0]?.extra?.receiverAuthorizer).toEqual(expect.any(String));
      // The terms travel in the header only (the official middleware's 402).
      expect(await answer.json()).toEqual({});
    },
  );

  // Hono routes HEAD to the GET handler, but the official middleware matches routes by method:
  // HEAD passed it unmatched and met the 405 of a GET carrying a paying voucher.
  it.each(["/check", "/deep"])(
    "HEAD %s answers what GET does: the 402 with the same terms",
    async (path) => {
      const get = await stack.app.request(path);
      const head = await stack.app.request(path, { method: "HEAD" });
      expect(head.status).toBe(get.status);
      const terms = (answer: Response) =>
        decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "").accepts;
      expect(terms(head)).toEqual(terms(get));
    },
  );

  it("GET with a payment header that is not base64 JSON answers the same terms, and writes nothing to stderr", async () => {
    const plain = decodePaymentRequiredHeader(
      (await stack.app.request("/check")).headers.get("payment-required") ?? "",
    );
    const warn = vi.spyOn(console, "warn");
    const error = vi.spyOn(console, "error");
    try {
      const answer = await stack.app.request("/check", {
        headers: { "PAYMENT-SIGNATURE": "junk" },
      });
      expect(answer.status).toBe(402);
      const required = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
      expect(required.accepts).toEqual(plain.accepts);
      // The official middleware printed its decoding error's stack here (not a JSON log line).
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it("documents both GET operations in a valid OpenAPI document: free, 200, 402 and 405", async () => {
    const document = (await (await stack.app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const validated = await new Validator().validate(document);
    expect(validated.errors ?? []).toEqual([]);
    for (const path of ["/check", "/deep"]) {
      const operation = document.paths[path]?.get;
      expect(operation?.summary).toContain("Refund a payment channel");
      expect(operation?.tags).toEqual(["verification"]);
      // Nothing is paid here: no price for x402 crawlers, no security.
      expect(operation?.security).toEqual([]);
      expect(operation?.["x-payment-info"]).toBeUndefined();
      expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(["200", "402", "405", "429"]);
      // The paid check stays POST.
      expect(document.paths[path]?.post?.["x-payment-info"]).toBeDefined();
    }
  });

  it("a GET carrying a deposit, not a refund, is answered 405 and nothing is settled", async () => {
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-refund-route-payer`));
    await fund(wallet.address, 10n * price);
    const before = await stack.usdcBalance(wallet.address);
    const probe = await stack.app.request("/check");
    const header = probe.headers.get("payment-required");
    if (header === null) throw new Error("the 402 carries no PAYMENT-REQUIRED");
    const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(wallet), {
      voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
      depositStrategy: () => 5n * price,
    });
    const http = new x402HTTPClient(new x402Client().register("eip155:8453", scheme));
    const payload = await http.createPaymentPayload(decodePaymentRequiredHeader(header));
    expect((payload.payload as { type?: string }).type).toBe("deposit");
    const answer = await stack.app.request("/check", {
      headers: http.encodePaymentSignatureHeader(payload),
    });
    expect(answer.status).toBe(405);
    expect(await answer.json()).toMatchObject({ error: { code: "method_not_allowed" } });
    expect(answer.headers.get("payment-response")).toBeNull();
    expect(await stack.usdcBalance(wallet.address)).toBe(before);
  });

  // The official middleware handed a version 1 payload naming `accepted` terms to the
  // facilitator, which has no version 1 scheme: the 402 said facilitator_unavailable.
  it("a GET carrying a payment of another x402 version than 2 answers the plain terms and settles nothing", async () => {
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-refund-v1-payer`));
    await fund(wallet.address, 10n * price);
    const before = await stack.usdcBalance(wallet.address);
    const probe = await stack.app.request("/check");
    const plain = decodePaymentRequiredHeader(probe.headers.get("payment-required") ?? "");
    const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(wallet), {
      voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
      depositStrategy: () => 5n * price,
    });
    const http = new x402HTTPClient(new x402Client().register("eip155:8453", scheme));
    const payload = await http.createPaymentPayload(plain);
    for (const x402Version of [1, 3]) {
      const answer = await stack.app.request("/check", {
        headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader({ ...payload, x402Version }) },
      });
      expect(answer.status).toBe(402);
      const required = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
      expect(required.error).toBe(plain.error);
      expect(required.accepts).toEqual(plain.accepts);
      expect(answer.headers.get("payment-response")).toBeNull();
    }
    expect(await stack.usdcBalance(wallet.address)).toBe(before);
  });

  it("a refund voucher is answered 200: the channel named, PAYMENT-RESPONSE with the refund, the rest back on chain", async () => {
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-refund-route-closer`));
    await fund(wallet.address, 10n * price);
    const answers: Response[] = [];
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        const refundVoucher =
          (init?.method ?? "GET") === "GET" && new Headers(init?.headers).has("payment-signature");
        // The same refund voucher on a HEAD first: answered the terms, nothing refunded.
        if (refundVoucher) answers.push(await viaStack(input, { ...init, method: "HEAD" }));
        const answer = await viaStack(input, init);
        if ((init?.method ?? "GET") === "GET") answers.push(answer.clone());
        return answer;
      },
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        deposit: 5n * price,
      },
    });
    expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    const before = await stack.usdcBalance(wallet.address);
    answers.length = 0;
    expect(await client.closeChannel()).toMatchObject({ type: "closed" });
    expect(answers.map((answer) => answer.status)).toEqual([402, 402, 200]);
    expect(answers[1]?.headers.get("payment-response")).toBeNull();
    const refund = answers[2] as Response;
    expect(await refund.json()).toEqual({
      message: "Refund acknowledged",
      channelId: expect.stringMatching(/^0x[0-9a-f]{64}$/i),
    });
    const settled = decodePaymentResponseHeader(refund.headers.get("payment-response") ?? "");
    expect(settled).toMatchObject({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/i),
      amount: String(4n * price),
    });
    expect(await stack.usdcBalance(wallet.address)).toBe(before + 4n * price);
  });

  it("a refund voucher for a channel the server refunded while idle is refused with why (missing channel), not a bare 402; the client says the rest is back and its next check opens a new channel", async () => {
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-refund-route-idle`));
    await fund(wallet.address, 20n * price);
    const answers: Response[] = [];
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        const answer = await viaStack(input, init);
        if ((init?.method ?? "GET") === "GET") answers.push(answer.clone());
        return answer;
      },
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        deposit: 5n * price,
      },
    });
    expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    // The server's idle refund (a day without checks, here at once): the rest is back, and the
    // server no longer holds the channel.
    const refunds =
      (await stack.payments.channels?.manager().refundIdleChannels({ idleSecs: 0 })) ?? [];
    expect(refunds.length).toBeGreaterThanOrEqual(1);
    const afterRefund = await stack.usdcBalance(wallet.address);

    expect(await client.closeChannel()).toEqual({
      type: "failed",
      message:
        "Already closed: what was left of this channel's deposit went back to your wallet (a close whose answer was lost, or presend's server's own refund after a time without checks).",
      nothingLeft: true,
    });
    const refused = answers.at(-1) as Response;
    expect(refused.status).toBe(402);
    const header = refused.headers.get("payment-required");
    if (header === null) throw new Error("the refusal carries no PAYMENT-REQUIRED");
    expect(decodePaymentRequiredHeader(header)).toMatchObject({
      error: "invalid_batch_settlement_evm_missing_channel",
      accepts: [{ scheme: "batch-settlement" }],
    });
    expect(await stack.usdcBalance(wallet.address)).toBe(afterRefund);

    // The next check pays through a new channel: one new deposit.
    expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    expect(await stack.usdcBalance(wallet.address)).toBe(afterRefund - 5n * price);
  });
});
