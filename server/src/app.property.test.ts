import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "./app";

const app = createApp({
  publicUrl: "http://127.0.0.1:8402",
  probe: async () => [],
});

const paths = ["/validate", "/health", "/openapi.json", "/check", "/deep", "/", "/receipts/0x1"];
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
  fc.stringMatching(/^0x[0-9a-fA-F]{0,45}$/),
  fc.string({ unit: "binary" }),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 6000 }),
  fc.json().map((json) => json),
  address.map((value) => JSON.stringify({ address: value, chain: "base" })),
  fc.record({ address, chain: fc.string() }).map((value) => JSON.stringify(value)),
);
const query = fc.dictionary(fc.constantFrom("address", "chain", "x", "address"), address, {
  maxKeys: 3,
});

describe("no input produces a 500", () => {
  it("answers every generated request with a 2xx/4xx JSON body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
        fc.oneof(fc.constantFrom(...paths), fc.webPath()),
        query,
        fc.constantFrom(...contentTypes),
        body,
        async (method, path, params, contentType, payload) => {
          const search = new URLSearchParams(params).toString();
          const withBody = payload !== undefined && method !== "GET" && method !== "HEAD";
          const response = await app.request(`${path}${search ? `?${search}` : ""}`, {
            method,
            headers: contentType ? { "content-type": contentType } : {},
            body: withBody ? payload : undefined,
          });
          expect(response.status).toBeGreaterThanOrEqual(200);
          expect(response.status).toBeLessThan(500);
          if (method !== "HEAD" && method !== "OPTIONS" && response.status !== 304) {
            expect(response.headers.get("content-type") ?? "").toContain("application/json");
            await response.json();
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
