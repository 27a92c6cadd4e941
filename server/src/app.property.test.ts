import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "./http/appEnv";
import { type PaidStack, startPaidStack } from "./payments/testing/startPaidStack";

// The whole API as `npm start` composes it (paid routes, discovery, receipts, data documents)
// on the real local world, so payment headers reach the real x402 middleware and facilitator.
let stack: PaidStack;
let app: App;
beforeAll(async () => {
  // Its own world, not the shared one: its payment-shaped requests reach the facilitator, which
  // numbers its transactions per process (two files settling with one key would race).
  stack = await startPaidStack();
  app = stack.app;
});
afterAll(() => stack?.stop());

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
