import {
  checkEndpointSchema,
  checkL4ForOpenAPI,
  discoverOriginSchema,
  getOpenAPI,
  getWarningsForFavicon,
  getWarningsForL2,
  getWarningsForL3,
  getWarningsForL4,
  getWarningsForLegacyWellKnown,
  getWarningsForOpenAPI,
  isOpenApiParseFailure,
  probeLegacyWellKnown,
  validatePaymentRequiredDetailed,
} from "@agentcash/discovery";
import { devnetAccounts } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { getAddress, type Hex, verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../app";
import { loadConfig } from "../config/loadConfig";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

const PaidOperationSchema = z.object({
  requestBody: z.object({
    content: z.object({
      "application/json": z.object({ example: z.object({ address: z.string() }).loose() }),
    }),
  }),
  "x-payment-info": z.object({ protocols: z.array(z.object({ x402: z.unknown() })) }),
});

// @agentcash/discovery is the library x402scan registers origins with: it reads /openapi.json
// only, classifies each operation from its `security` and `x-payment-info`, and probes the live
// endpoint with a sample body for the 402. It fetches with the global fetch, so the app listens.
describe("@agentcash/discovery against the app", () => {
  let stack: PaidStack;
  let server: Listening;

  beforeAll(async () => {
    // 402s only, nothing paid: the run's shared world.
    const port = await freePort();
    stack = await startPaidStack({ world: sharedWorld(), publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("registers both paid routes as paid, with their USD price and x402", async () => {
    const discovery = await discoverOriginSchema({ target: server.url });
    expect(discovery.found).toBe(true);
    if (!discovery.found) return;
    const paid = discovery.endpoints.filter((endpoint) => endpoint.authMode === "paid");
    expect(paid.map((endpoint) => endpoint.resourceKey).sort()).toEqual([
      `${server.url} POST /check`,
      `${server.url} POST /deep`,
    ]);
    expect(paid.find((endpoint) => endpoint.path === "/check")).toMatchObject({
      price: "0.01 USD",
      pricingMode: "fixed",
      currency: "USD",
      protocols: ["x402"],
    });
    expect(paid.find((endpoint) => endpoint.path === "/deep")?.price).toBe("0.05 USD");
    // The free routes are declared public, not left without an auth mode.
    const free = discovery.endpoints.find((endpoint) => endpoint.path === "/validate");
    expect(free?.authMode).toBe("unprotected");
  });

  it("finds nothing to warn about in the OpenAPI document or the route list", async () => {
    const openApi = (await getOpenAPI(server.url))._unsafeUnwrap();
    if (openApi === null || isOpenApiParseFailure(openApi)) throw new Error("no OpenAPI");
    expect(getWarningsForOpenAPI(openApi).filter((w) => w.severity !== "info")).toEqual([]);
    const discovery = await discoverOriginSchema({ target: server.url });
    if (!discovery.found) throw new Error("not found");
    const warnings = getWarningsForL2({ routes: discovery.endpoints, source: "openapi" });
    expect(warnings).toEqual([]);
  });

  it("hands agents the API's guidance (info.x-guidance), within the crawler's budget", async () => {
    const openApi = (await getOpenAPI(server.url))._unsafeUnwrap();
    if (openApi === null || isOpenApiParseFailure(openApi)) throw new Error("no OpenAPI");
    const guidance = checkL4ForOpenAPI(openApi);
    expect(getWarningsForL4(guidance)).toEqual([]);
    expect(guidance?.guidance).toContain("POST /check ($0.01)");
  });

  it.each(["/check", "/deep"])(
    "probes %s with the OpenAPI example body and gets a valid x402 v2 challenge",
    async (path) => {
      const openApi = (await getOpenAPI(server.url))._unsafeUnwrap();
      if (openApi === null || isOpenApiParseFailure(openApi)) throw new Error("no OpenAPI");
      const operation = PaidOperationSchema.parse(
        (openApi.raw.paths as Record<string, { post?: unknown }>)[path]?.post,
      );
      const example = operation.requestBody.content["application/json"].example;
      // A crawler's sample body must pass the 400 checks: a correct EIP-55 address.
      expect(getAddress(example.address)).toBe(example.address);
      expect(operation["x-payment-info"].protocols[0]?.x402).toMatchObject({
        network: chains.base.caip2,
        asset: chains.base.usdc.address,
        payTo: stack.world.accounts.payTo.address,
      });

      const checked = await checkEndpointSchema({
        url: `${server.url}${path}`,
        sampleInputBody: example,
      });
      expect(checked.found).toBe(true);
      if (!checked.found) return;
      const post = checked.advisories.find((advisory) => advisory.method === "POST");
      // The probe names a 402 that also offers sign-in-with-x "siwx" (paid routes with a
      // sign-in to re-read); the OpenAPI the route list comes from says paid, with its price.
      expect(post?.authMode).toBe("siwx");
      const described = await checkEndpointSchema({ url: `${server.url}${path}` });
      if (!described.found) throw new Error("not described");
      expect(described.advisories.find((a) => a.method === "POST")).toMatchObject({
        authMode: "paid",
        protocols: ["x402"],
      });
      expect(post?.paymentOptions).toEqual([
        expect.objectContaining({
          network: chains.base.caip2,
          asset: chains.base.usdc.address,
          payTo: stack.world.accounts.payTo.address,
        }),
      ]);
      if (post === undefined) return;
      expect(getWarningsForL3(post).filter((w) => w.severity === "error")).toEqual([]);
      expect(validatePaymentRequiredDetailed(post.paymentRequiredBody).valid).toBe(true);
    },
  );

  it("finds the origin's icon, as the crawler's audit looks for one", async () => {
    expect((await getWarningsForFavicon(server.url))._unsafeUnwrap()).toEqual([]);
    const icon = await fetch(`${server.url}/favicon.svg`, { method: "HEAD" });
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
  });

  it("sees /.well-known/x402 only as an informational legacy note (the document stays served)", async () => {
    const probe = (await probeLegacyWellKnown(server.url))._unsafeUnwrap();
    expect(probe.x402).toBe(true);
    const warnings = getWarningsForLegacyWellKnown(probe);
    expect(warnings.map((w) => w.severity)).toEqual(["info"]);
  });
});

describe("@agentcash/discovery where channels are offered", () => {
  let stack: PaidStack;
  let server: Listening;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({
      world: sharedWorld(),
      publicUrl: `http://127.0.0.1:${port}`,
      channels: true,
    });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  // What docs/api.md's Discovery section says a live probe meets: GET's refund terms.
  it("lists GET /check free from the OpenAPI document; a live probe of every method meets its refund terms", async () => {
    const discovery = await discoverOriginSchema({ target: server.url });
    if (!discovery.found) throw new Error("not found");
    const get = discovery.endpoints.find((e) => e.path === "/check" && e.method === "GET");
    expect(get?.authMode).toBe("unprotected");
    const post = discovery.endpoints.find((e) => e.path === "/check" && e.method === "POST");
    expect(post).toMatchObject({ authMode: "paid", price: "0.01 USD" });

    const probed = await checkEndpointSchema({
      url: `${server.url}/check`,
      sampleInputBody: { address: devnetAccounts.activeOnBase.address },
    });
    if (!probed.found) throw new Error("not probed");
    const refundTerms = probed.advisories.find((advisory) => advisory.method === "GET");
    expect(refundTerms?.paymentOptions).toEqual([
      expect.objectContaining({ scheme: "batch-settlement", amount: "10000" }),
    ]);
    const paid = probed.advisories.find((advisory) => advisory.method === "POST");
    expect(paid?.paymentOptions).toEqual([
      expect.objectContaining({ scheme: "exact" }),
      expect.objectContaining({ scheme: "batch-settlement" }),
    ]);
    if (paid === undefined) return;
    expect(getWarningsForL3(paid).filter((w) => w.severity === "error")).toEqual([]);
  });
});

describe("@agentcash/discovery reads the operator's ownership proof", () => {
  it("reports the origin as ownership_verified when OWNERSHIP_PROOFS is set", async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    // The proof x402 registries check: payTo's EIP-191 signature of the origin.
    const payTo = privateKeyToAccount(generatePrivateKey());
    const proof = await payTo.signMessage({ message: origin });
    const app = createApp({
      publicUrl: origin,
      probe: async () => [],
      ownershipProofs: loadConfig({ OWNERSHIP_PROOFS: ` ${proof} ` }).ownershipProofs,
    });
    const server = await listen(app, { port });
    try {
      const discovery = await discoverOriginSchema({ target: server.url });
      expect(discovery).toMatchObject({ found: true, trustTier: "ownership_verified" });
      const [published] = discovery.found ? (discovery.ownershipProofs ?? []) : [];
      expect(
        await verifyMessage({
          address: payTo.address,
          message: origin,
          signature: published as Hex,
        }),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });
});
