import { Writable } from "node:stream";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLogger } from "./createLogger";
import { createMetrics } from "./createMetrics";
import { observeRequests } from "./observeRequests";
import { registerOpsRoutes } from "./registerOpsRoutes";

function observedApp(ready: boolean) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: "info", name: "test" }, sink);
  const metrics = createMetrics();
  const app = new Hono();
  app.use("*", observeRequests({ logger, metrics }));
  registerOpsRoutes(app, {
    metrics,
    readiness: async () => (ready ? { ready: true } : { ready: false, reason: "shutting down" }),
  });
  app.get("/receipts/:tx", (c) => c.json({ tx: c.req.param("tx") }));
  return { app, lines, metrics };
}

describe("observability", () => {
  it("gives every request an id (the proxy's when valid), one JSON log line, and metrics per route pattern", async () => {
    const { app, lines } = observedApp(true);
    const fromProxy = await app.request("/receipts/0xabc", {
      headers: { "X-Request-Id": "nginx-42" },
    });
    expect(fromProxy.headers.get("x-request-id")).toBe("nginx-42");
    const forged = await app.request("/receipts/0xdef", {
      headers: { "X-Request-Id": 'x", "forged": true, "y": "' },
    });
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged[0]).toMatchObject({ reqId: "nginx-42", route: "/receipts/:tx", status: 200 });
    expect(logged[1]).not.toHaveProperty("forged");

    const metrics = await (await app.request("/metrics")).text();
    // The route pattern, never the raw path: an address in a URL does not make a new series.
    expect(metrics).toContain(
      'presend_http_requests_total{method="GET",route="/receipts/:tx",status="200"} 2',
    );
    expect(metrics).not.toContain("0xabc");
  });

  it("answers liveness always and readiness 503 with the JSON error contract when not ready", async () => {
    const { app } = observedApp(false);
    expect((await app.request("/livez")).status).toBe(200);
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ error: { code: "not_ready", message: "shutting down" } });
  });
});
