import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains } from "@presend/shared/chains/chains";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import fc from "fast-check";
import { createPublicClient, type Hex, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "./http/appEnv";
import { type FaultyRpc, startFaultyRpc } from "./payments/testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./payments/testing/startPaidStack";

// The whole API as `npm start` composes it (paid routes, discovery, receipts, data documents)
// on the real local world, so payment headers reach the real x402 middleware and facilitator.
// Payments go through a fault-injecting proxy in front of Base, so the payment network can be
// taken down for a request.
// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
let stack: PaidStack;
let app: App;
let rpc: FaultyRpc;
beforeAll(async () => {
  // Its payment chain goes through a fault proxy of its own, which this file takes down.
  rpc = await startFaultyRpc(shared.world.chains.base.rpcUrl);
  stack = await startPaidStack({ world: shared.world, paymentRpcUrl: rpc.url });
  app = stack.app;
});
afterAll(async () => {
  await stack?.stop();
  await rpc?.close();
});

const paths = [
  "/validate",
  "/health",
  "/openapi.json",
  "/check",
  "/deep",
  "/",
  "/receipts/0x1",
  "/.well-known/x402",
  "/landscape",
  "/diligence",
];
const contentTypes = [
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
  "application/json; charset=utf-8",
];
const address = fc.oneof(
  fc.string(),
  fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
  // All lowercase: well formed with no checksum, so it passes validation and reaches payment.
  fc.stringMatching(/^0x[0-9a-f]{40}$/),
  fc.stringMatching(/^0x[0-9a-fA-F]{0,45}$/),
  fc.string({ unit: "binary" }),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.string({ minLength: 4097, maxLength: 6000 }),
  fc.json().map((json) => json),
  address.map((value) => JSON.stringify({ address: value, chain: "base" })),
  fc.record({ address, chain: fc.string() }).map((value) => JSON.stringify(value)),
);
const query = fc.dictionary(fc.constantFrom("address", "chain", "x", "address"), address, {
  maxKeys: 3,
});

type GeneratedRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  contentType: string;
  payload: string | undefined;
  payment: { header: string; value: string } | undefined;
};

const payment = fc.option(
  fc.record({
    header: fc.constantFrom("payment-signature", "x-payment"),
    value: fc.oneof(fc.string(), fc.base64String({ maxLength: 400 })),
  }),
  { nil: undefined },
);

// Anything at all: any method, path, query, content type, body and payment header.
const anyRequest: fc.Arbitrary<GeneratedRequest> = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
  path: fc.oneof(fc.constantFrom(...paths), fc.webPath()),
  params: query,
  contentType: fc.constantFrom(...contentTypes),
  payload: body,
  payment,
});

// Requests shaped like a real paid call, so the payment path itself is exercised every run.
const paidShapedRequest: fc.Arbitrary<GeneratedRequest> = fc.record({
  method: fc.constant("POST"),
  path: fc.constantFrom("/check", "/deep"),
  params: fc.constant({}),
  contentType: fc.constantFrom("application/json", "application/json; charset=utf-8"),
  payload: fc
    .record({
      address: fc.stringMatching(/^0x[0-9a-f]{40}$/),
      chain: fc.constantFrom("base", "ethereum", "arbitrum", "optimism", "polygon", "solana"),
    })
    .map((value) => JSON.stringify(value)),
  payment,
});

describe("no input produces a 500", () => {
  it("answers every generated request with a 2xx/4xx JSON body", async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyRequest, paidShapedRequest), async (request) => {
        const { method, path, params, contentType, payload } = request;
        const search = new URLSearchParams(params).toString();
        const withBody = payload !== undefined && method !== "GET" && method !== "HEAD";
        // fetch refuses header values outside printable ASCII before the server could see them.
        const sendable = request.payment && /^[\x20-\x7e]*$/.test(request.payment.value);
        const response = await app.request(`${path}${search ? `?${search}` : ""}`, {
          method,
          headers: {
            ...(contentType ? { "content-type": contentType } : {}),
            ...(sendable && request.payment
              ? { [request.payment.header]: request.payment.value }
              : {}),
          },
          body: withBody ? payload : undefined,
        });
        seen.add(response.status);
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(500);
        if (method !== "HEAD" && method !== "OPTIONS" && response.status !== 304) {
          expect(response.headers.get("content-type") ?? "").toContain("application/json");
          await response.json();
        }
      }),
      { numRuns: 2000 },
    );
    // The generators must reach every kind of answer, or the property proves little.
    for (const status of [200, 400, 402, 404, 413, 415]) expect(seen).toContain(status);
    // 2000 requests through the whole stack: ~45-60 s alone, more while the suite runs beside it.
  }, 240_000);
});

const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const prices = { "/check": 10_000n, "/deep": 50_000n } as const;
type PaidPath = keyof typeof prices;
// Text that must never reach a caller: loopback URLs, other URLs, raw transactions, stack frames.
const internals = /127\.0\.0\.1:\d+|https?:\/\/|0x02f8|\bat [\w.]+ \(/i;
const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);

/** What a generated paid call does with its (real, devnet payer) signature. */
type PaymentMove =
  | { type: "valid" }
  /** The signed authorization altered afterwards (value or recipient): the signature no longer holds. */
  | { type: "tampered"; field: "value" | "to" }
  /** Signed for /check's price, sent to /deep. */
  | { type: "underpaid" }
  /** A payment already sent once, sent again for another request. */
  | { type: "replayed" }
  /** A payment id already used, with a fresh signature, for the same request or another one. */
  | { type: "sameId"; sameRequest: boolean };

type PaidCall = {
  path: PaidPath;
  address: string;
  chain: "base" | "ethereum" | "arbitrum" | "optimism" | "polygon";
  move: PaymentMove;
  withId: boolean;
  /** The payment network (Base) answers 429 to everything while this request is served. */
  networkDown: boolean;
};

const paidCall: fc.Arbitrary<PaidCall> = fc.record({
  path: fc.constantFrom<PaidPath>("/check", "/check", "/check", "/deep"),
  address: fc.oneof(
    fc.constantFrom(
      devnetAccounts.activeOnBase.address,
      devnetAccounts.fresh.address,
      devnetAccounts.sweptOnBase.address,
      chains.base.usdc.address,
    ),
    fc.stringMatching(/^0x[0-9a-f]{40}$/),
  ),
  chain: fc.constantFrom("base", "base", "ethereum", "arbitrum", "optimism", "polygon"),
  move: fc.oneof(
    { weight: 5, arbitrary: fc.constant<PaymentMove>({ type: "valid" }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<PaymentMove>(
        { type: "tampered", field: "value" },
        { type: "tampered", field: "to" },
      ),
    },
    { weight: 1, arbitrary: fc.constant<PaymentMove>({ type: "underpaid" }) },
    { weight: 1, arbitrary: fc.constant<PaymentMove>({ type: "replayed" }) },
    {
      weight: 1,
      arbitrary: fc.boolean().map<PaymentMove>((sameRequest) => ({ type: "sameId", sameRequest })),
    },
  ),
  withId: fc.boolean(),
  networkDown: fc.boolean().chain((down) => (down ? fc.boolean() : fc.constant(false))),
});

const exampleCall = (move: PaymentMove, overrides: Partial<PaidCall> = {}): PaidCall => ({
  path: "/check",
  address: devnetAccounts.activeOnBase.address,
  chain: "base",
  move,
  withId: true,
  networkDown: false,
  ...overrides,
});

// In order: a payment that settles (200), one tampered (402), the first one replayed (409: its
// authorization is spent), one with a payment id (200), that id reused for another address (409),
// and one sent while the payment network is down (503).
const branchExamples: PaidCall[] = [
  exampleCall({ type: "valid" }, { withId: false }),
  exampleCall({ type: "tampered", field: "value" }),
  exampleCall({ type: "replayed" }),
  exampleCall({ type: "valid" }),
  exampleCall({ type: "sameId", sameRequest: false }, { address: devnetAccounts.fresh.address }),
  exampleCall({ type: "valid" }, { networkDown: true }),
];

describe("valid payments: the handler, settlement, the 503 path and receipts, with the money invariants", () => {
  it("charges exactly what it answers 200 for, records each settlement once, never 500s, never leaks", async () => {
    const base = createPublicClient({ transport: http(stack.world.chains.base.rpcUrl) });
    const payTo = stack.world.accounts.payTo.address;
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client);
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const challenges = new Map<PaidPath, PaymentRequired>();
    const challenge = async (path: PaidPath) => {
      const known = challenges.get(path);
      if (known) return structuredClone(known);
      const answer = await post(path, JSON.stringify({ address: payer.address }));
      const required = httpClient.getPaymentRequiredResponse(
        (name) => answer.headers.get(name),
        await answer.json(),
      );
      challenges.set(path, required);
      return structuredClone(required);
    };
    const sign = async (path: PaidPath, paymentId: string | null) => {
      const required = await challenge(path);
      if (paymentId !== null)
        appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
      return httpClient.createPaymentPayload(required);
    };
    const nonceOf = (payload: PaymentPayload) =>
      (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    const used = (nonce: Hex) =>
      base.readContract({
        address: chains.base.usdc.address,
        abi: eip3009,
        functionName: "authorizationState",
        args: [payer.address, nonce],
      });

    /** Every payment sent so far, with what it asked and whether it settled. */
    const sent: Array<{
      payload: PaymentPayload;
      body: string;
      path: PaidPath;
      paymentId: string | null;
    }> = [];
    const settledTxs = new Set<string>();
    const seen = new Map<number, number>();
    let charged = 0n;
    const payToStart = await stack.usdcBalance(payTo);

    await fc.assert(
      fc.asyncProperty(paidCall, async (call) => {
        const body = JSON.stringify({ address: call.address, chain: call.chain });
        let payload: PaymentPayload;
        let paymentId: string | null = call.withId ? generatePaymentId() : null;
        const earlier = sent.at(-1);
        const move = call.move;
        if (move.type === "replayed" && earlier) {
          payload = earlier.payload;
        } else if (move.type === "sameId" && earlier?.paymentId) {
          paymentId = earlier.paymentId;
          payload = await sign(move.sameRequest ? earlier.path : call.path, paymentId);
        } else if (move.type === "underpaid") {
          payload = await sign("/check", paymentId);
        } else {
          payload = await sign(call.path, paymentId);
        }
        const path =
          move.type === "underpaid"
            ? "/deep"
            : move.type === "sameId" && move.sameRequest && earlier
              ? earlier.path
              : call.path;
        const requestBody =
          move.type === "sameId" && move.sameRequest && earlier ? earlier.body : body;
        if (move.type === "tampered") {
          const authorization = (payload.payload as { authorization: Record<string, string> })
            .authorization;
          payload = structuredClone(payload);
          const altered = (payload.payload as { authorization: Record<string, string> })
            .authorization;
          if (move.field === "value")
            altered.value = (BigInt(authorization.value ?? "0") + 1n).toString();
          else altered.to = devnetAccounts.sweeperThief.address;
        }
        const nonce = nonceOf(payload);
        const wasUsed = await used(nonce);
        const payToBefore = await stack.usdcBalance(payTo);
        const recordsBefore = await stack.records.count();

        if (call.networkDown) rpc.mode = "http429";
        let response: Response;
        try {
          response = await post(
            path,
            requestBody,
            httpClient.encodePaymentSignatureHeader(payload),
          );
        } finally {
          rpc.mode = "pass";
        }
        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
        const text = await response.clone().text();

        // No 500, and every answer is the contract: the report, a PaymentRequired, or an error.
        expect([200, 402, 409, 502, 503]).toContain(response.status);
        const json = JSON.parse(text);
        if (response.status !== 200 && response.status !== 402) {
          expect(json).toMatchObject({
            error: { code: expect.any(String), message: expect.any(String) },
          });
        }
        // Nothing internal: our public URL and the JSON Schema dialect are the only URLs allowed.
        expect(
          text
            .replaceAll(stack.publicUrl, "")
            .replaceAll("https://json-schema.org/draft/2020-12/schema", ""),
        ).not.toMatch(internals);
        const settlementHeader = response.headers.get("payment-response");
        const settlement =
          settlementHeader === null ? null : decodePaymentResponseHeader(settlementHeader);
        expect(settlement?.errorMessage).toBeUndefined();

        const payToAfter = await stack.usdcBalance(payTo);
        if (response.status === 200) {
          // A 200 has one settlement on chain and one settled record holding this very report.
          expect(settlement).toMatchObject({ success: true });
          const tx = (settlement?.transaction ?? "").toLowerCase();
          const record = await stack.records.byTransaction(tx);
          expect(record).toMatchObject({ status: "settled", tx, route: path });
          expect(record?.report).toEqual(json);
          const receipt = await base.getTransactionReceipt({ hash: tx as Hex });
          expect(receipt.status).toBe("success");
          expect(await used(record?.nonce as Hex)).toBe(true);
          if (settledTxs.has(tx)) {
            // Answered again from its record (a payment id retried): not charged again.
            expect(payToAfter).toBe(payToBefore);
            expect(await stack.records.count()).toBe(recordsBefore);
          } else {
            settledTxs.add(tx);
            const price = prices[path];
            expect(payToAfter).toBe(payToBefore + price);
            expect(await stack.records.count()).toBe(recordsBefore + 1);
            charged += price;
          }
          // And the payer can fetch it again.
          const signature = await payer.signMessage({ message: receiptMessage(tx) });
          const again = await app.request(`/receipts/${tx}?signature=${signature}`);
          expect(again.status).toBe(200);
          expect((await again.json()).report).toEqual(json);
        } else {
          // A refused payment is never charged: nothing moved, and its authorization is as it was.
          expect(payToAfter).toBe(payToBefore);
          expect(await used(nonce)).toBe(wasUsed);
          expect(settlement?.success ?? false).toBe(false);
        }
        if (move.type === "valid" || move.type === "underpaid") {
          sent.push({ payload, body: requestBody, path, paymentId });
        }
      }),
      // The random sample may miss a branch: the examples reach each one first, every run.
      { numRuns: 60, examples: branchExamples.map((call) => [call]) },
    );
    expect(await stack.usdcBalance(payTo)).toBe(payToStart + charged);
    // Every branch was reached: paid, refused by the payment layer, refused as a replay or a
    // reused id, and the payment network down.
    for (const status of [200, 402, 409, 503]) expect(seen.get(status) ?? 0).toBeGreaterThan(0);
  }, 300_000);
});
