import { gzipSync } from "node:zlib";
import { devnetAccounts, senderWorld } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { DeepReportSchema, ReportSchema } from "@presend/shared/api/report";
import { verifyAttestation } from "@presend/shared/attestation/verifyAttestation";
import { chains } from "@presend/shared/chains/chains";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

function payingClient() {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
  return client;
}

describe("paid routes on the local world (real anvil, in-process facilitator)", () => {
  let stack: PaidStack;
  const appFetch = async (input: RequestInfo | URL, init?: RequestInit) =>
    stack.app.request(input instanceof Request ? input : new Request(input, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startPaidStack({ world: shared.world });
  });
  afterAll(() => stack?.stop());

  it.each([
    ["malformed address", { address: "0x1234" }, 400, "invalid_address"],
    [
      "checksum mismatch",
      { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046".replace("dA6", "Da6") },
      400,
      "checksum_mismatch",
    ],
    ["unknown chain", { address: target, chain: "solana" }, 400, "unknown_chain"],
    ["a malformed from", { address: target, from: "0x1234" }, 400, "invalid_from"],
    ["a from that is not a string", { address: target, from: 7 }, 400, "invalid_from"],
    [
      "a from with a wrong checksum",
      {
        address: target,
        from: devnetAccounts.poisoningVictim.address.replace(/[a-f]/, (c) => c.toUpperCase()),
      },
      400,
      "invalid_from",
    ],
    [
      "from equal to address",
      { address: target, from: target.toLowerCase() },
      400,
      "from_equals_address",
    ],
    ["missing address", { chain: "base" }, 400, "missing_address"],
    ["an address that is not a string", { address: 42 }, 400, "invalid_address"],
    ["a chain that is not a string", { address: target, chain: 8453 }, 400, "unknown_chain"],
    ["a JSON array", [target], 400, "invalid_body"],
    ["JSON null", null, 400, "invalid_body"],
    ["bad JSON", "{address:", 400, "invalid_json"],
    ["a body over 4 KB", { address: target, pad: "x".repeat(5000) }, 413, "body_too_large"],
  ])(
    "answers %s with a JSON error before any payment challenge",
    async (_name, body, status, code) => {
      for (const path of ["/check", "/deep"]) {
        const response = await post(path, body);
        expect(response.status).toBe(status);
        expect(response.headers.get("payment-required")).toBeNull();
        expect(await response.json()).toMatchObject({ error: { code } });
      }
    },
  );

  it("answers a wrong content type with 415 before any payment challenge", async () => {
    const response = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ address: target }),
    });
    expect(response.status).toBe(415);
    expect(response.headers.get("payment-required")).toBeNull();
    expect(await response.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
  });

  it("answers a compressed body with 415 before any payment challenge, naming the coding it takes", async () => {
    const json = JSON.stringify({ address: target });
    for (const [encoding, body] of [
      // Valid JSON compressed: read as it came it would be "not valid JSON".
      ["gzip", gzipSync(json)],
      // A coding the body does not have: read as it came it would pass as unlabelled.
      ["br", json],
      ["identity, gzip", gzipSync(json)],
    ] as const) {
      for (const path of ["/check", "/deep"]) {
        const response = await stack.app.request(path, {
          method: "POST",
          headers: { "content-type": "application/json", "content-encoding": encoding },
          body,
        });
        expect(response.status).toBe(415);
        expect(response.headers.get("payment-required")).toBeNull();
        expect(response.headers.get("accept-encoding")).toBe("identity");
        expect(await response.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
      }
    }
    // The body as it is, labelled so, is taken.
    const identity = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "identity" },
      body: json,
    });
    expect(identity.status).toBe(402);
  });

  it("challenges an unpaid request with PaymentRequired in the header and in the JSON body", async () => {
    for (const [path, amount] of [
      ["/check", "10000"],
      ["/deep", "50000"],
    ] as const) {
      const response = await post(path, { address: target });
      expect(response.status).toBe(402);
      const header = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
      const body = await response.json();
      expect(header.x402Version).toBe(2);
      expect(header.accepts).toEqual([
        {
          scheme: "exact",
          network: "eip155:8453",
          asset: chains.base.usdc.address,
          amount,
          payTo: stack.world.accounts.payTo.address,
          maxTimeoutSeconds: 60,
          extra: { name: "USD Coin", version: "2" },
        },
      ]);
      expect(body).toMatchObject({ x402Version: 2, error: "Payment required" });
      expect(body.resource.url).toBe(`${stack.publicUrl}${path}`);
      expect(body.accepts[0]).toMatchObject({
        ...header.accepts[0],
        mimeType: "application/json",
        outputSchema: {
          type: "http",
          input: { method: "POST" },
          output: { fields: expect.arrayContaining(["verdict"]) },
        },
      });
      expect(body.accepts[0].description).toContain(amount);
      const attestation = body.extensions["x-presend-attestation"].info;
      expect(body.extensions["x-presend-attestation"]).toEqual(
        header.extensions?.["x-presend-attestation"],
      );
      const verified = await verifyAttestation({
        block: attestation,
        route: path,
        payTo: header.accepts[0]?.payTo ?? "",
        amount,
      });
      expect(verified.type).toBe("valid");
    }
  });

  it("settles a /check paid with the official fetch client: payer -10000, payTo +10000, receipt kept", async () => {
    const payTo = stack.world.accounts.payTo.address;
    const [payerBefore, payToBefore] = await Promise.all([
      stack.usdcBalance(payer.address),
      stack.usdcBalance(payTo),
    ]);
    const pay = wrapFetchWithPayment(appFetch, payingClient());
    const response = await pay(`${stack.publicUrl}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target.toLowerCase(), chain: "base" }),
    });
    expect(response.status).toBe(200);
    const report = ReportSchema.parse(await response.json());
    expect(report.address).toBe(target);
    expect(report.checksum.status).toBe("missing");
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "");
    expect(settlement).toMatchObject({
      success: true,
      network: "eip155:8453",
      payer: payer.address,
    });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
    const receipt = await stack.records.byTransaction(settlement.transaction);
    expect(receipt).toMatchObject({
      route: "/check",
      amount: "10000",
      payer: payer.address.toLowerCase(),
      payTo: payTo.toLowerCase(),
      status: "settled",
    });
    expect(receipt?.report).toEqual(report);
  });

  it("a paid /check with from reads the sender's history: the planted lookalike is address poisoning", async () => {
    const pay = wrapFetchWithPayment(appFetch, payingClient());
    const from = devnetAccounts.poisoningVictim.address;
    const response = await pay(`${stack.publicUrl}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: senderWorld.freshLookalike, chain: "base", from }),
    });
    expect(response.status).toBe(200);
    const report = ReportSchema.parse(await response.json());
    expect(report.from).toBe(from);
    expect(report.verdict.level).toBe("danger");
    expect(report.verdict.reasons[0]?.code).toBe("address_poisoning");
    expect(report.chain.history?.sender?.lookalikes[0]?.address).toBe(
      devnetAccounts.genuineCounterparty.address,
    );
    expect(report.report).toContain(`Sender          ${from}`);
  });

  it("settles a /deep paid in the X-Payment header: four other chains, token-mismatch flags", async () => {
    const challenge = await post("/deep", { address: target });
    const httpClient = new x402HTTPClient(payingClient());
    const paymentRequired = httpClient.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const payload = await httpClient.createPaymentPayload(paymentRequired);
    const signature = httpClient.encodePaymentSignatureHeader(payload)["PAYMENT-SIGNATURE"] ?? "";
    const before = await stack.usdcBalance(payer.address);
    const response = await post("/deep", { address: target }, { "X-Payment": signature });
    expect(response.status).toBe(200);
    const report = DeepReportSchema.parse(await response.json());
    expect(report.others.map((facts) => facts.name).sort()).toEqual([
      "arbitrum",
      "ethereum",
      "optimism",
      "polygon",
    ]);
    expect(Array.isArray(report.verdict.tokenMismatch)).toBe(true);
    expect(
      decodePaymentResponseHeader(response.headers.get("payment-response") ?? "").success,
    ).toBe(true);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 50_000n);
  });

  it("serves the discovery document with the contract's fields and the same attestation as the 402", async () => {
    const response = await stack.app.request("/.well-known/x402");
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.version).toBe(1);
    expect(doc.resources).toEqual([`${stack.publicUrl}/check`, `${stack.publicUrl}/deep`]);
    expect(doc.items.map((item: { resource: string }) => item.resource)).toEqual(doc.resources);
    expect(doc.items[1].accepts[0]).toMatchObject({
      amount: "50000",
      maxTimeoutSeconds: 60,
      mimeType: "application/json",
    });
    expect(Number.isNaN(Date.parse(doc.lastUpdated))).toBe(false);
    expect(Object.keys(doc.metadata).sort()).toEqual([
      "api",
      "category",
      "chains",
      "contract",
      "description",
      "discovery",
      "docsUrl",
      "example",
      "home",
      "honestLimits",
      "provider",
    ]);
    expect(doc.metadata.chains).toEqual(["base", "ethereum", "arbitrum", "optimism", "polygon"]);
    expect(doc.metadata.example).toMatchObject({ method: "POST", url: `${stack.publicUrl}/check` });
    const challenge = await post("/check", { address: target });
    const body = await challenge.json();
    expect(doc.attestation).toEqual(body.extensions["x-presend-attestation"].info);
  });

  it("documents the paid routes in /openapi.json with their prices in x-payment-info and no API key", async () => {
    const doc = await (await stack.app.request("/openapi.json")).json();
    const check = doc.paths["/check"].post;
    const deep = doc.paths["/deep"].post;
    expect(check.tags).toEqual(["verification"]);
    // The payment is the authentication: no API key scheme, the price in x-payment-info; a
    // sign-in (marked as wallet identity for crawlers) is optional.
    expect(check.security).toEqual([{}, { siwx: [] }]);
    expect(doc.components.securitySchemes.siwx).toMatchObject({
      name: "sign-in-with-x",
      "x-agentcash-auth-kind": "siwx",
    });
    expect(check["x-payment-info"].price).toEqual({
      mode: "fixed",
      currency: "USD",
      amount: "0.01",
    });
    expect(deep["x-payment-info"].protocols[0].x402).toMatchObject({ amount: "50000" });
    expect(check.description).toContain("USD 0.01");
    expect(deep.description).toContain("USD 0.05");
    expect(Object.keys(check.responses)).toEqual(
      expect.arrayContaining(["200", "400", "402", "503"]),
    );
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["siwx"]);
    expect(doc.components.schemas).toHaveProperty("Report");
    expect(doc.components.schemas).toHaveProperty("DeepReport");
    expect(doc.components.schemas).toHaveProperty("CheckRequest");
    expect(doc.components.schemas.CheckRequest.properties.from.description).toContain(
      "address poisoning",
    );
    expect(doc.components.schemas.CheckRequest.required).toEqual(["address"]);
    expect(doc.paths["/.well-known/x402"].get.security).toEqual([]);
  });

  it("answers 503 chain_unavailable and charges nothing when the target chain cannot be read", async () => {
    // Same world, but the engine's ethereum endpoint is a closed port.
    const broken = await startPaidStack({
      world: stack.world,
      rpcUrls: { ethereum: ["http://127.0.0.1:9"] },
    });
    try {
      const pay = wrapFetchWithPayment(
        async (input: RequestInfo | URL, init?: RequestInit) =>
          broken.app.request(input instanceof Request ? input : new Request(input, init)),
        payingClient(),
      );
      const before = await broken.usdcBalance(payer.address);
      const response = await pay(`${broken.publicUrl}/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: target, chain: "ethereum" }),
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: { code: "chain_unavailable" } });
      expect(response.headers.get("payment-response")).toBeNull();
      expect(await broken.usdcBalance(payer.address)).toBe(before);
      expect(await broken.records.count()).toBe(0);
    } finally {
      await broken.stop();
    }
  });
});
