import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "./app";
import type { ChainHealth } from "./health/probeChains";
import { limits } from "./limits";

const healthy: ChainHealth[] = [
  { name: "base", chainId: 8453, reachable: true, blockNumber: "7", latencyMs: 1 },
  {
    name: "ethereum",
    chainId: 1,
    reachable: false,
    blockNumber: null,
    latencyMs: null,
    error: "x",
  },
];
const app = createApp({ publicUrl: "http://127.0.0.1:8402", probe: async () => healthy });
const checksummed = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("GET /validate", () => {
  it.each([
    [checksummed, true, "valid", checksummed],
    [checksummed.toLowerCase(), true, "missing", checksummed],
    ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046", false, "invalid", null],
    ["0x1234", false, "invalid", null],
    ["not an address", false, "invalid", null],
  ])("answers 200 with the checksum verdict for %s", async (address, valid, status, normalized) => {
    const response = await app.request(`/validate?address=${encodeURIComponent(address)}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ address, valid, normalized, checksum: { status } });
    expect(typeof body.checksum.message).toBe("string");
  });

  it.each(["/validate", "/validate?address=", "/validate?address=%20"])(
    "answers 404 missing_address for %s",
    async (path) => {
      const response = await app.request(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "missing_address" } });
    },
  );
});

describe("GET /validate with the address given twice", () => {
  it("answers 400 invalid_body (not the verdict of the first value), and the document lists it", async () => {
    const response = await app.request(
      `/validate?address=${checksummed}&address=${checksummed.replace("dA6", "da6")}`,
      { headers: { origin: "https://dapp.example" } },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_body" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const document = await (await app.request("/openapi.json")).json();
    expect(Object.keys(document.paths["/validate"].get.responses)).toContain("400");
  });

  it("still answers one address beside another parameter whose name ends in address", async () => {
    const response = await app.request(`/validate?mailaddress=x&address=${checksummed}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ address: checksummed });
  });
});

describe("GET /health", () => {
  it("reports each chain and degraded when one is unreachable", async () => {
    const response = await app.request("/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "degraded", chains: healthy });
  });
});

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, version 1.0.0, with /validate free", async () => {
    const response = await app.request("/openapi.json");
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(document.paths["/validate"].get.security).toEqual([]);
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists the rate limits' 429 on every operation (every documented route is rate limited)", async () => {
    const document = await (await app.request("/openapi.json")).json();
    const operations = Object.entries(
      document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.map(({ path, method }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining(["get /validate", "get /health"]),
    );
    for (const { operation } of operations) {
      expect(operation.responses["429"]).toMatchObject({
        description: expect.stringContaining("rate_limited"),
        headers: { "Retry-After": expect.any(Object) },
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      });
    }
    // The document is served under its own rate limit too, so it is answered like any route.
    expect(document.components.schemas.Error).toBeDefined();
  });
});

describe("errors", () => {
  it("answers unknown routes with a JSON 404", async () => {
    const response = await app.request("/nope");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
  });

  it("answers bodies over 4 KB with 413 body_too_large", async () => {
    const response = await app.request("/validate?address=0x1", {
      method: "POST",
      body: "x".repeat(5000),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "body_too_large" } });
  });

  it("draws the body limit exactly at limits.requestBodyBytes", async () => {
    const post = (bytes: number) =>
      app.request("/nope", {
        method: "POST",
        body: "x".repeat(bytes),
        headers: { "content-type": "application/json" },
      });
    expect((await post(limits.requestBodyBytes)).status).toBe(404);
    expect((await post(limits.requestBodyBytes + 1)).status).toBe(413);
  });

  it("counts the body limit in bytes, not characters, with or without a Content-Length", async () => {
    // Two bytes each in UTF-8: half the limit in characters, one byte over it in bytes.
    const body = `${"é".repeat(limits.requestBodyBytes / 2)}x`;
    const withLength = await app.request("/nope", {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
      },
    });
    expect(withLength.status).toBe(413);
    const streamed = await app.request("/nope", {
      method: "POST",
      body: new Blob([body]).stream(),
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it("answers a body that stops before its end with 400 malformed_request, not a 500", async () => {
    // What node-server hands over when the connection drops (or Node's parser gives up) in the
    // middle of a chunked body: a stream that errors after its first bytes.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const cutOff = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"address":'));
          controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
        },
      });
      const response = await app.request("/check", {
        method: "POST",
        body: cutOff,
        headers: { "content-type": "application/json" },
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "malformed_request" } });
      // A broken request is not presend's fault: nothing is logged as one.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it.each(["/validate?address=0x1", "/health", "/openapi.json", "/nope"])(
    "lets any origin read GET %s",
    async (path) => {
      const response = await app.request(path, { headers: { origin: "https://dapp.example" } });
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    },
  );

  it("lets browsers read the x402 headers (CORS)", async () => {
    const response = await app.request("/validate?address=0x1", {
      method: "OPTIONS",
      headers: { origin: "https://dapp.example", "access-control-request-method": "POST" },
    });
    expect(response.headers.get("access-control-allow-headers")).toContain("PAYMENT-SIGNATURE");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("an unexpected error", () => {
  const failing = async (
    failedRequestAnswer?: Parameters<typeof createApp>[0]["failedRequestAnswer"],
  ): Promise<Response> => {
    const app = createApp({
      publicUrl: "http://127.0.0.1:8402",
      probe: async () => healthy,
      routeGroups: [
        (app) =>
          app.get("/broken", () => {
            throw new Error("boom at http://10.0.0.7:8545");
          }),
      ],
      ...(failedRequestAnswer && { failedRequestAnswer }),
    });
    return app.request("/broken");
  };
  const quietly = async <T>(run: () => Promise<T>): Promise<T> => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      return await run();
    } finally {
      logged.mockRestore();
    }
  };

  it("on a request without a payment is a 500 that says nothing was charged", async () => {
    for (const answer of [undefined, async () => null]) {
      const response = await quietly(() => failing(answer));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: { code: "internal_error", message: "Internal error; nothing was charged." },
      });
    }
  });

  it("is answered by the payments' reading of the request when it gives one", async () => {
    const response = await quietly(() =>
      failing(async (c) => c.json({ error: { code: "settlement_unknown", message: "m" } }, 502)),
    );
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: "settlement_unknown", message: "m" } });
  });

  it("when the payments' reading itself fails, claims nothing about a charge and leaks nothing", async () => {
    const response = await quietly(() =>
      failing(async () => {
        throw new Error("records at postgres://secret@db");
      }),
    );
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("internal_error");
    expect(error.message).not.toContain("nothing was charged");
    expect(error.message).toContain("not known");
    expect(error.message).not.toMatch(/postgres|10\.0\.0\.7|boom/);
  });
});
