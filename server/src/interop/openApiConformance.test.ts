import { readFileSync } from "node:fs";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { type DiscoveryExtension, validateDiscoveryExtension } from "@x402/extensions/bazaar";
import { wrapFetchWithPayment } from "@x402/fetch";
import { Ajv2020 } from "ajv/dist/2020";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// A client generated from /openapi.json, and an x402 agent reading the 402's bazaar declaration,
// trust those documents to say what each answer looks like. Every operation the document lists is
// driven here to every status a real local world can make it answer, and each real answer must be
// one the document declares for that operation, with a body that validates (ajv, JSON Schema
// 2020-12 as OpenAPI 3.1 uses it) against the declared schema, no field it does not name, and
// every header the API exposes to clients (Access-Control-Expose-Headers) declared on that answer;
// each error's status and code must be a row of docs/api.md's errors table. Only the faults other
// tests inject (a 500 or 502 after a bug or a lost settlement) are left undriven, by name.
const { world, lane, fund } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
// The Ethereum RPC the engine reads is a closed port: a paid check there is a 503.
const deadRpc = "http://127.0.0.1:9";

type Header = { required?: boolean; schema?: object };
type Answer = {
  content?: Record<string, { schema: object }>;
  headers?: Record<string, Header>;
};
type Operation = { responses: Record<string, Answer> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/**
 * The schema with every object that lists its properties closed to others: a field the server
 * answers that the document does not name is a mismatch too (a generated client drops it).
 */
function closed(schema: object): object {
  return JSON.parse(JSON.stringify(schema), (_key, value) =>
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    value.properties !== undefined &&
    value.additionalProperties === undefined
      ? { ...value, additionalProperties: false }
      : value,
  );
}

const api = readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8");

/** docs/api.md's routes table: `METHOD path` of each route it says the document lists. */
function documentedRouteRows(): string[] {
  const table = api.slice(api.indexOf("## Routes"), api.indexOf("### The paid request"));
  return table
    .split("\n")
    .filter((line) => /^\|\s*(GET|POST)\s*\|/.test(line) && !line.includes("not in OpenAPI"))
    .flatMap((line) => {
      const [, method, paths] = line.split("|").map((cell) => cell.trim());
      return [...(paths ?? "").matchAll(/`([^`?]+)[^`]*`/g)].map(([, path]) => `${method} ${path}`);
    });
}

/** docs/api.md's errors table: the status and code of each row. */
function documentedErrorRows(): Set<string> {
  const rows = api.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm);
  return new Set([...rows].map(([, status, code]) => `${status} ${code}`));
}

describe("every answer as /openapi.json (and the 402's bazaar declaration) documents it", () => {
  let stack: PaidStack;
  let limited: PaidStack;
  let paymentRpc: FaultyRpc;
  let document: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true })
    // The formats the document uses, checked rather than ignored.
    .addFormat("date", /^\d{4}-\d{2}-\d{2}$/)
    .addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i)
    .addFormat("uri", (value: string) => URL.canParse(value));
  const errorRows = documentedErrorRows();
  /** `METHOD path status` of every answer checked, by the document's path template. */
  const answered = new Set<string>();
  const viaStack = async (input: RequestInfo | URL, init?: RequestInit) =>
    stack.app.request(input instanceof Request ? input : new Request(input, init));

  /**
   * Checks one real answer against the document: its status declared for the operation, its
   * body valid against the declared schema (or empty when none is declared), its declared
   * headers present when required and valid; an error's status and code in docs/api.md.
   */
  async function expectDocumented(
    method: string,
    path: string,
    response: Response,
  ): Promise<unknown> {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is not in the document`).toBeDefined();
    const where = `${method} ${path} ${response.status}`;
    const answer = operation?.responses[String(response.status)];
    expect(answer, `${where}: the document declares no such answer`).toBeDefined();
    answered.add(where);
    const text = await response.text();
    const media = answer?.content ? Object.keys(answer.content) : [];
    let body: unknown;
    if (media.length === 0) {
      expect(text, `${where}: a body where the document declares none`).toBe("");
    } else {
      expect(response.headers.get("content-type") ?? "", where).toContain(media[0]);
      body = JSON.parse(text);
      const schema = answer?.content?.[media[0] as string]?.schema as object;
      const validate = ajv.compile(closed({ ...schema, components: document.components }));
      validate(body);
      expect(validate.errors ?? [], `${where}: the body does not fit its schema`).toEqual([]);
    }
    // The headers the API exposes to pages are the ones a client reads: each one an answer
    // carries is one its operation documents.
    const declared = Object.keys(answer?.headers ?? {}).map((name) => name.toLowerCase());
    const exposed = (response.headers.get("access-control-expose-headers") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "" && response.headers.has(name));
    if (exposed.some((name) => !declared.includes(name)))
      console.log(
        "HDR",
        where,
        exposed.filter((name) => !declared.includes(name)),
      );
    expect
      .soft(
        exposed.filter((name) => !declared.includes(name)),
        `${where}: headers sent but not documented`,
      )
      .toEqual([]);
    for (const [name, header] of Object.entries(answer?.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        expect(header.required, `${where}: required header ${name} missing`).not.toBe(true);
        continue;
      }
      const schema = header.schema ?? {};
      const typed = (schema as { type?: string }).type === "integer" ? Number(value) : value;
      const validate = ajv.compile(schema);
      validate(typed);
      expect(validate.errors ?? [], `${where}: header ${name}: ${value}`).toEqual([]);
    }
    const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
    if (response.status >= 400 && code !== undefined) {
      expect(errorRows, `${where}: docs/api.md has no row ${response.status} ${code}`).toContain(
        `${response.status} ${code}`,
      );
    }
    return body;
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  /** An `exact` payment for POST `path` with `body`, signed by the official client. */
  async function exactPayment(path: string, body: unknown) {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const http = new x402HTTPClient(client);
    const challenge = await post(path, body);
    const required = http.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const payload = await http.createPaymentPayload(required);
    const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
    return { headers: http.encodePaymentSignatureHeader(payload), nonce };
  }

  beforeAll(async () => {
    // Base as payments read it, through a proxy a test can make fail.
    paymentRpc = await startFaultyRpc(world.chains.base.rpcUrl);
    stack = await startPaidStack({
      world,
      paymentRpcUrl: paymentRpc.url,
      rpcUrls: { ethereum: [deadRpc] },
      // Channels offered as npm start offers them, under this lane's own receiver authorizer.
      receiverAuthorizerKey: devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`),
    });
    // The same API with the rate limits on, at one request per budget.
    limited = await startPaidStack({
      world,
      receiverAuthorizerKey: devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`),
      env: { RATE_LIMITS: "on", RATE_LIMIT_FREE: "1", RATE_LIMIT_CHALLENGES: "1" },
    });
    document = await (await stack.app.request("/openapi.json")).json();
  });
  afterAll(async () => {
    await limited?.stop();
    await stack?.stop();
    await paymentRpc?.close();
  });

  it("the free routes: /health (one chain down), /validate, the discovery and data documents", async () => {
    const health = await expectDocumented("GET", "/health", await stack.app.request("/health"));
    expect(health).toMatchObject({ status: "degraded" });
    for (const query of [`?address=${target}`, "?address=nope", ""]) {
      await expectDocumented("GET", "/validate", await stack.app.request(`/validate${query}`));
    }
    const twice = await stack.app.request(`/validate?address=${target}&address=${target}`);
    expect(twice.status).toBe(400);
    await expectDocumented("GET", "/validate", twice);
    await expectDocumented(
      "GET",
      "/.well-known/x402",
      await stack.app.request("/.well-known/x402"),
    );
    for (const kind of ["/diligence", "/landscape", "/arbitrum-rail", "/solana-rail"]) {
      const first = await stack.app.request(kind);
      const etag = first.headers.get("etag") ?? "";
      await expectDocumented("GET", kind, first);
      const again = await stack.app.request(kind, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
      await expectDocumented("GET", kind, again);
    }
  });

  it.each(["/check", "/deep"])(
    "POST %s: every kind of bad input, the 402 challenge and a refused payment",
    async (path) => {
      const bad: Array<[unknown, Record<string, string>?]> = [
        ["{not json"],
        [[target]],
        [{ address: 5 }],
        [{ chain: "base" }],
        [{ address: "0x1234" }],
        [{ address: target.toLowerCase().replace("0x", "0X") }],
        [{ address: target.replace(/[A-F]/, (letter) => letter.toLowerCase()) }],
        [{ address: target, chain: "solana" }],
        [{ address: target, from: "nope" }],
        [{ address: target, from: target.toLowerCase() }],
        [{ address: target }, { "content-type": "text/plain" }],
        [{ address: target }, { "content-encoding": "gzip" }],
        [{ address: target, padding: "x".repeat(5_000) }],
      ];
      const statuses = [];
      for (const [body, headers] of bad) {
        const response = await post(path, body, headers);
        statuses.push(response.status);
        await expectDocumented("POST", path, response);
      }
      expect(new Set(statuses)).toEqual(new Set([400, 413, 415]));
      // The document's own example of the body fits its schema and is a request that pays.
      const operation = document.paths[path]?.post as unknown as {
        requestBody: { content: { "application/json": { schema: object; example: unknown } } };
      };
      const request = operation.requestBody.content["application/json"];
      const requestFits = ajv.compile(
        closed({ ...request.schema, components: document.components }),
      );
      requestFits(request.example);
      expect(requestFits.errors ?? []).toEqual([]);
      expect((await post(path, request.example)).status).toBe(402);
      const challenge = await post(path, { address: target });
      expect(challenge.status).toBe(402);
      await expectDocumented("POST", path, challenge);
      const refused = await post(path, { address: target }, { "payment-signature": "x" });
      expect(refused.status).toBe(402);
      await expectDocumented("POST", path, refused);
    },
  );

  it.each([
    ["/check", { address: target, from: devnetAccounts.poisoningVictim.address }],
    ["/deep", { address: devnetAccounts.exchangeDeposit.address, chain: "base" }],
  ] as const)(
    "POST %s paid by the official client: the 200 fits the document and the 402's bazaar output schema",
    async (path, body) => {
      const challenge = await post(path, body);
      const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
      const declared = required.extensions?.bazaar as DiscoveryExtension;
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
      const paid = await wrapFetchWithPayment(viaStack, client)(`${stack.publicUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(paid.status).toBe(200);
      const report = await expectDocumented("POST", path, paid.clone());
      // The bazaar declaration's own output schema, as a cataloguing agent reads it.
      const declaredSchemas = (
        declared.schema as unknown as {
          properties: {
            input: { properties: { body: object } };
            output: { properties: { example: object } };
          };
        }
      ).properties;
      const bodyFits = ajv.compile(declaredSchemas.input.properties.body);
      bodyFits(body);
      expect(bodyFits.errors ?? []).toEqual([]);
      const reportFits = ajv.compile(declaredSchemas.output.properties.example);
      reportFits(report);
      expect(reportFits.errors ?? []).toEqual([]);
      const real = {
        ...declared,
        info: { ...declared.info, output: { type: "json", example: report } },
      } as DiscoveryExtension;
      expect(validateDiscoveryExtension(real)).toEqual({ valid: true });
      // The declaration as sent, its own example included, holds too.
      expect(validateDiscoveryExtension(declared)).toEqual({ valid: true });
    },
  );

  it.each(["/check", "/deep"])(
    "POST %s: the same authorization again is a 409; a chain that cannot be read, a 503",
    async (path) => {
      const body = { address: target };
      const payment = await exactPayment(path, body);
      const paid = await post(path, body, payment.headers);
      expect(paid.status).toBe(200);
      await expectDocumented("POST", path, paid);
      const again = await post(path, body, payment.headers);
      expect(again.status).toBe(409);
      await expectDocumented("POST", path, again);
      const down = { address: target, chain: "ethereum" };
      const unavailable = await post(path, down, (await exactPayment(path, down)).headers);
      expect(unavailable.status).toBe(503);
      await expectDocumented("POST", path, unavailable);
    },
  );

  it("GET /receipts: 200, 400, 403, 404, 409 and 503, by transaction and by authorization", async () => {
    const body = { address: target };
    const payment = await exactPayment("/check", body);
    const paid = await post("/check", body, payment.headers);
    expect(paid.status).toBe(200);
    const tx = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "").transaction;
    const byTx = `/receipts/${tx}`;
    const byNonce = `/receipts/${payer.address.toLowerCase()}/${payment.nonce}`;
    const signed = {
      [byTx]: await payer.signMessage({ message: receiptMessage(tx.toLowerCase()) }),
      [byNonce]: await payer.signMessage({ message: receiptMessage(payment.nonce) }),
    };
    const template = (path: string) =>
      path.split("/").length === 3 ? "/receipts/{tx}" : "/receipts/{payer}/{nonce}";
    for (const path of [byTx, byNonce]) {
      const signature = signed[path] as string;
      const statuses = [];
      for (const query of [
        `?signature=${signature}`,
        `?signature=${signature}&signature=${signature}`,
        "",
      ]) {
        const response = await stack.app.request(`${path}${query}`);
        statuses.push(response.status);
        await expectDocumented("GET", template(path), response);
      }
      expect(statuses).toEqual([200, 400, 403]);
      // A signature that is no ECDSA one of the payer's while Base cannot be read to check it as
      // a smart account's: not known to be the payer's, nor known not to be.
      paymentRpc.mode = "garbage";
      try {
        const unverifiable = await stack.app.request(`${path}?signature=0x${"11".repeat(65)}`);
        expect(unverifiable.status).toBe(503);
        await expectDocumented("GET", template(path), unverifiable);
      } finally {
        paymentRpc.mode = "pass";
      }
    }
    for (const path of [
      `/receipts/0x${"ab".repeat(32)}`,
      `/receipts/${target}/0x${"ab".repeat(32)}`,
      "/receipts/nope",
    ]) {
      const response = await stack.app.request(path);
      expect(response.status).toBe(404);
      await expectDocumented("GET", template(path), response);
    }
    // A payment whose settlement is not known yet, valid for an hour more: 409.
    const owner = privateKeyToAccount(generatePrivateKey());
    const key = { payer: owner.address, nonce: `0x${"ef".repeat(32)}` };
    await stack.records.begin({
      ...key,
      network: "eip155:8453",
      asset: chains.base.usdc.address,
      payTo: world.accounts.payTo.address,
      route: "/check",
      amount: String(routePrices.check),
      validBefore: Math.floor(Date.now() / 1000) + 3_600,
      report: { address: target },
    });
    await stack.records.markUnknown(key, null);
    const open = await stack.app.request(
      `/receipts/${owner.address}/${key.nonce}?signature=${await owner.signMessage({ message: receiptMessage(key.nonce) })}`,
    );
    expect(open.status).toBe(409);
    await expectDocumented("GET", "/receipts/{payer}/{nonce}", open);
    // A transaction no record carries while Base cannot be read: whether it charged is not known.
    paymentRpc.mode = "receiptErrors";
    try {
      const unknownTx = `0x${"cd".repeat(32)}`;
      const unread = await stack.app.request(
        `/receipts/${unknownTx}?signature=${await payer.signMessage({ message: receiptMessage(unknownTx) })}`,
      );
      expect(unread.status).toBe(409);
      await expectDocumented("GET", "/receipts/{tx}", unread);
    } finally {
      paymentRpc.mode = "pass";
    }
  });

  it("GET /check and /deep (a channel's refund): the terms, a deposit refused 405, a refund 200", async () => {
    for (const path of ["/check", "/deep"]) {
      const terms = await stack.app.request(path);
      expect(terms.status).toBe(402);
      await expectDocumented("GET", path, terms);
    }
    const price = BigInt(routePrices.check);
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-openapi-channel`));
    await fund(wallet.address, 10n * price);
    const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(wallet), {
      voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
      depositStrategy: () => 5n * price,
    });
    const http = new x402HTTPClient(new x402Client().register("eip155:8453", scheme));
    for (const path of ["/check", "/deep"]) {
      const terms = decodePaymentRequiredHeader(
        (await stack.app.request(path)).headers.get("payment-required") ?? "",
      );
      const deposit = await http.createPaymentPayload(terms);
      const refused = await stack.app.request(path, {
        headers: http.encodePaymentSignatureHeader(deposit),
      });
      expect(refused.status).toBe(405);
      await expectDocumented("GET", path, refused);
    }

    // A check over a channel, then its refund asked of each route in turn (a new channel each).
    for (const path of ["/check", "/deep"]) {
      const answers: Array<[string, Response]> = [];
      const client = createPresendClient({
        url: stack.publicUrl,
        signer: wallet,
        pinStore: createMemoryPinStore(),
        fetch: async (input, init) => {
          const method = init?.method ?? "GET";
          // The client closes through GET /check; the channel is the same one behind GET /deep.
          const url = String(input instanceof Request ? input.url : input);
          const asked = method === "GET" ? url.replace(/\/check$/, path) : url;
          const answer = await viaStack(asked, init);
          answers.push([method, answer.clone()]);
          return answer;
        },
        channel: {
          voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
          deposit: 5n * price,
        },
      });
      expect(await client.check({ address: target })).toMatchObject({ type: "report" });
      expect(await client.closeChannel()).toMatchObject({ type: "closed" });
      expect(answers.map(([method, answer]) => `${method} ${answer.status}`)).toEqual([
        "POST 402",
        "POST 200",
        "GET 402",
        "GET 200",
      ]);
      for (const [method, answer] of answers) {
        await expectDocumented(method, method === "GET" ? path : "/check", answer);
      }
    }
  });

  it("every operation over its rate limit: a 429 with its documented headers", async () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const concrete = path
          .replace("{tx}", `0x${"ab".repeat(32)}`)
          .replace("{payer}", target)
          .replace("{nonce}", `0x${"ab".repeat(32)}`);
        const request = () =>
          limited.app.request(concrete, {
            method: method.toUpperCase(),
            ...(method === "post" && {
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ address: target }),
            }),
          });
        let response = await request();
        if (response.status !== 429) response = await request();
        expect(response.status, `${method} ${path}`).toBe(429);
        await expectDocumented(method.toUpperCase(), path, response);
      }
    }
  });

  it("docs/api.md's routes table lists the operations the document lists, and the document itself", () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documentedRouteRows().sort()).toEqual([...operations, "GET /openapi.json"].sort());
  });

  it("drove every documented answer but the injected faults'", () => {
    const undriven = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        Object.keys(operation.responses)
          .map((status) => `${method.toUpperCase()} ${path} ${status}`)
          .filter((where) => !answered.has(where)),
      ),
    );
    expect(undriven.sort()).toEqual(
      [
        "POST /check 500",
        "POST /check 502",
        "POST /deep 500",
        "POST /deep 502",
        "GET /receipts/{tx} 500",
        "GET /receipts/{payer}/{nonce} 500",
      ].sort(),
    );
  });
});
