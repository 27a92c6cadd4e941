import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedWorld } from "@presend/devnet/testing";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { composeServer } from "./composeServer";
import { ConfigError, loadConfig } from "./config/loadConfig";
import { worldConfig } from "./localDemo/worldConfig";
import { startPostgres } from "./localServices/startPostgres";
import { startRedis } from "./localServices/startRedis";
import { openPostgresPaymentRecords } from "./paymentRecords/openPostgresPaymentRecords";
import {
  devAttestationKeyFile,
  loadAttestationKey,
} from "./payments/attestation/loadAttestationKey";
import { type PaidStack, startPaidStack } from "./payments/testing/startPaidStack";

// The composition `npm start` serves, checked as a whole: one valid OpenAPI 3.1 document that
// documents the paid routes with their prices and security, the free ones with none.
describe("the composed API", () => {
  let stack: PaidStack;
  let document: {
    openapi: string;
    info: { version: string };
    paths: Record<
      string,
      Record<
        string,
        {
          tags?: string[];
          security?: unknown[];
          description?: string;
          "x-payment-info"?: { protocols: Array<{ x402: { amount: string; scheme: string } }> };
        }
      >
    >;
  };

  beforeAll(async () => {
    // Documents and 402s only, nothing paid: the run's shared world. Channels as npm start
    // offers them, by default.
    stack = await startPaidStack({ world: sharedWorld(), channels: true });
    document = await (await stack.app.request("/openapi.json")).json();
  });
  afterAll(() => stack?.stop());

  it("serves a valid OpenAPI 3.1 document, version 1.0.0", async () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each([
    ["/check", "10000"],
    ["/deep", "50000"],
  ])("documents POST %s as paid (x-payment-info, verification tag, price %s)", (path, units) => {
    const operation = document.paths[path]?.post;
    expect(operation?.tags).toEqual(["verification"]);
    const protocols = operation?.["x-payment-info"]?.protocols.map(({ x402 }) => x402);
    // Both schemes, exact first, at the one price.
    expect(protocols?.map((x402) => x402.scheme)).toEqual(["exact", "batch-settlement"]);
    expect(protocols?.map((x402) => x402.amount)).toEqual([units, units]);
    expect(operation?.description).toContain(units);
  });

  // A client generated from the document, or a crawler checking the live 402 against it, reads
  // each answer with the schema the document gives for its status: every answer must fit it.
  it.each([
    ["POST", "/check", { "content-type": "application/json" }, { address: "" }, 402],
    ["POST", "/deep", { "content-type": "application/json" }, { address: "" }, 402],
    [
      "POST",
      "/check",
      { "content-type": "application/json", "payment-signature": "x" },
      { address: "" },
      402,
    ],
    ["POST", "/check", { "content-type": "application/json" }, { address: "0x12" }, 400],
    ["POST", "/deep", { "content-type": "text/plain" }, { address: "" }, 415],
    ["GET", "/check", {}, undefined, 402],
    ["GET", "/validate", {}, undefined, 404],
  ] as const)(
    "answers %s %s as the document describes (%o %o: %i)",
    async (method, path, headers, body, status) => {
      const address = stack.world.demo[0]?.address ?? "";
      const response = await stack.app.request(path, {
        method,
        headers,
        ...(body && { body: JSON.stringify({ ...body, address: body.address || address }) }),
      });
      expect(response.status).toBe(status);
      const schema = documentedAnswer(document, method, path, status);
      const answer = schema.safeParse(await response.json());
      expect(answer.error?.issues ?? []).toEqual([]);
    },
  );

  it.each([
    ["/validate", "verification"],
    ["/diligence", "data"],
    ["/landscape", "data"],
    ["/arbitrum-rail", "data"],
    ["/solana-rail", "data"],
  ])("documents GET %s as free (empty security, tag %s)", (path, tag) => {
    const operation = document.paths[path]?.get;
    expect(operation?.security).toEqual([]);
    expect(operation?.tags).toContain(tag);
  });

  it("serves the discovery document with the same attestation as the 402", async () => {
    const discovery = await (await stack.app.request("/.well-known/x402")).json();
    const challenge = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: stack.world.demo[0]?.address }),
    });
    expect(challenge.status).toBe(402);
    const body = await challenge.json();
    // Offered out of the box, exact first, in the 402 and the discovery document alike.
    expect(body.accepts.map((accept: { scheme: string }) => accept.scheme)).toEqual([
      "exact",
      "batch-settlement",
    ]);
    for (const item of discovery.items) {
      expect(item.accepts.map((accept: { scheme: string }) => accept.scheme)).toEqual([
        "exact",
        "batch-settlement",
      ]);
    }
    expect(body.extensions["x-presend-attestation"]).toBeDefined();
    expect(JSON.stringify(body.extensions["x-presend-attestation"])).toContain(
      discovery.attestation.jws,
    );
  });

  it("a channel store on a Redis that keeps no append-only file stops start-up, naming CHANNEL_STORE", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-channel-store-"));
    const redis = await startRedis();
    try {
      const config = worldConfig(
        loadConfig({ DATA_DIR: dir, REDIS_URL: redis.url, CHANNEL_STORE: "redis" }),
        sharedWorld(),
      );
      await expect(composeServer(config, { publicUrl: "http://presend.test" })).rejects.toThrow(
        /^CHANNEL_STORE: redis keeps no append-only file/,
      );
    } finally {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe("a facilitator that does not answer at start", () => {
    // A 1 ms deadline: no facilitator answers in time, with or without internet.
    const unanswered = async (env: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), "presend-facilitator-"));
      try {
        await loadAttestationKey({ dataDir: dir });
        const config = loadConfig({
          PRESEND_NETWORK: "testnet",
          DATA_DIR: dir,
          PAY_TO: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
          ATTESTATION_KEY_FILE: join(dir, devAttestationKeyFile),
          FACILITATOR_VERIFY_TIMEOUT_MS: "1",
          ...env,
        });
        const composed = composeServer(config, { publicUrl: "http://presend.test" });
        await expect(composed).rejects.toBeInstanceOf(ConfigurationError);
        return await composed.then(
          () => "",
          (error: Error) => error.message,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };

    it("on the testnet without FACILITATOR_URL, is named as the testnet default with what to set instead", async () => {
      const message = await unanswered({});
      expect(message).toMatch(
        /^FACILITATOR_URL is unset, so the testnet default facilitator https:\/\/x402\.org was used \(set FACILITATOR_URL, e\.g\. your own presend facilitator, or FACILITATOR_PROVIDER\): /,
      );
    });

    it("set by FACILITATOR_URL, is named by its origin, never its path", async () => {
      const message = await unanswered({ FACILITATOR_URL: "http://127.0.0.1:9/secret-path" });
      expect(message).toMatch(/^FACILITATOR_URL \(http:\/\/127\.0\.0\.1:9\): /);
      expect(message).not.toContain("secret-path");
    });
  });

  it("a DATA_DIR that cannot be made stops start-up, naming DATA_DIR, without a stack trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-data-dir-"));
    try {
      const file = join(dir, "a-file");
      writeFileSync(file, "");
      const config = worldConfig(loadConfig({ DATA_DIR: join(file, "data") }), sharedWorld());
      const composed = composeServer(config, { publicUrl: "http://presend.test" });
      await expect(composed).rejects.toBeInstanceOf(ConfigError);
      await expect(composed).rejects.toThrow(/^DATA_DIR: ENOTDIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Made, but SQLite cannot open its files there (a volume another user owns, a read-only mount;
  // as root the test stands a directory where the file goes): SQLite's error named nothing, and
  // main printed its stack trace.
  it.each(["payments.sqlite", "channels.sqlite"])(
    "a DATA_DIR where %s cannot be opened stops start-up, naming DATA_DIR and the file",
    async (name) => {
      const dir = mkdtempSync(join(tmpdir(), "presend-data-dir-"));
      try {
        mkdirSync(join(dir, name));
        const config = worldConfig(loadConfig({ DATA_DIR: dir }), sharedWorld());
        const composed = composeServer(config, { publicUrl: "http://presend.test" });
        await expect(composed).rejects.toBeInstanceOf(ConfigError);
        await expect(composed).rejects.toThrow(
          `DATA_DIR: cannot open ${join(dir, name)} (unable to open database file): the directory must be writable`,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("a malformed address list stops start-up, naming ADDRESS_LISTS, the file and the line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
    try {
      const file = join(dir, "lists.jsonl");
      writeFileSync(file, '# a comment\n{"address":"0x1234","chains":["base"]}\n');
      const config = worldConfig(
        { ...loadConfig({ DATA_DIR: dir }), addressLists: [file] },
        sharedWorld(),
      );
      await expect(composeServer(config, { publicUrl: "http://presend.test" })).rejects.toThrow(
        `ADDRESS_LISTS: ${file} line 2: address`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("/readyz says the payment records store does not answer or take writes, never its host, port or error", async () => {
    const postgres = await startPostgres();
    let unready: PaidStack | undefined;
    try {
      unready = await startPaidStack({
        world: sharedWorld(),
        records: await openPostgresPaymentRecords(postgres.url),
      });
      expect((await unready.app.request("/readyz")).status).toBe(200);
      await postgres.stop();
      // The store's last good probe is shared for up to recordsProbeMs.
      await expect
        .poll(async () => (await unready?.app.request("/readyz"))?.status, { timeout: 5_000 })
        .toBe(503);
      const readyz = await unready.app.request("/readyz");
      const text = await readyz.text();
      expect(JSON.parse(text)).toEqual({
        error: {
          code: "not_ready",
          message: "the payment records store does not answer or does not take writes",
        },
        // Shown beside the verdict, never deciding it.
        facilitator: { state: "reachable", checkedAt: expect.any(String) },
      });
      // What the database's error would have shown anyone reaching /readyz through the proxy.
      expect(text).not.toContain(String(postgres.port));
      expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    } finally {
      await unready?.stop();
      await postgres.stop();
    }
  }, 60_000);
});

/**
 * The schema the OpenAPI document gives the JSON answer of one operation and status, as zod reads
 * JSON Schema: the document's components become the schema's $defs, so its $refs resolve.
 */
function documentedAnswer(document: unknown, method: string, path: string, status: number) {
  const { paths, components } = document as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown> };
  };
  const answer = paths[path]?.[method.toLowerCase()]?.responses[String(status)] as
    | { content: { "application/json": { schema: object } } }
    | undefined;
  if (answer === undefined) throw new Error(`${method} ${path} documents no ${status}`);
  const rooted = JSON.stringify({
    ...answer.content["application/json"].schema,
    $defs: components.schemas,
  }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(JSON.parse(rooted));
}
