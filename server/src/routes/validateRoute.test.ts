import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createApp } from "../app";
import { createLogger } from "../observability/createLogger";
import { createMetrics } from "../observability/createMetrics";
import { observeRequests } from "../observability/observeRequests";
import { rateLimits } from "../rateLimit/rateLimits";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("GET /validate behind the operations middleware", () => {
  it("answers on its own fast path with the request id, the rate-limit state and its CORS headers", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const metrics = createMetrics();
    const app = createApp({
      publicUrl: "http://127.0.0.1",
      probe: async () => [],
      beforeRoutes: [
        (app) => {
          const logger = createLogger({ level: "info", name: "test" }, sink);
          app.use("*", observeRequests({ logger, metrics }));
          const settings = { freeLimit: 2, challengeLimit: 2, windowMs: 60_000, trustProxy: false };
          app.use("*", rateLimits({ settings, metrics }));
        },
      ],
    });
    const answer = await app.request(`/validate?address=${address}`, {
      headers: { "X-Request-Id": "nginx-7" },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ address, valid: true });
    expect(answer.headers.get("x-request-id")).toBe("nginx-7");
    expect(answer.headers.get("ratelimit")).toBe("limit=2, remaining=1, reset=60");
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(lines[0] as string)).toMatchObject({ reqId: "nginx-7", route: "/validate" });
    expect(await metrics.registry.metrics()).toContain(
      'presend_http_requests_total{method="GET",route="/validate",status="200"} 1',
    );

    await app.request(`/validate?address=${address}`);
    const refused = await app.request(`/validate?address=${address}`);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("rate_limited");
  });

  it("lets a page read its refusals too: the 404 missing_address and the 429s carry the CORS headers", async () => {
    const settings = { freeLimit: 1, challengeLimit: 1, windowMs: 60_000, trustProxy: false };
    const app = createApp({
      publicUrl: "http://127.0.0.1",
      probe: async () => [],
      beforeRoutes: [(app) => app.use("*", rateLimits({ settings }))],
    });
    const origin = { Origin: "https://wallet.example" };
    const missing = await app.request("/validate", { headers: origin });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("missing_address");
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
    expect(missing.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    // Over the free budget (the 404 above spent it) and over the challenge budget of /check.
    const post = () => app.request("/check", { method: "POST", headers: origin });
    await post();
    for (const refused of [await app.request(`/validate?address=${address}`), await post()]) {
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.code).toBe("rate_limited");
      expect(refused.headers.get("access-control-allow-origin")).toBe("*");
      expect(refused.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    }
  });
});
