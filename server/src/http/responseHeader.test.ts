import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { corsJson } from "./apiCors";
import { listen } from "./listen";
import { setResponseHeader } from "./responseHeader";

function appSetting(name: string, value: string) {
  const app = new Hono();
  app.use("*", async (c, next) => {
    setResponseHeader(c, name, value);
    await next();
  });
  app.get("/fast", (c) => corsJson(c, { ok: true }));
  app.get("/full", (c) => c.json({ ok: true }, 200, { "x-own": "kept" }));
  return app;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("setResponseHeader", () => {
  it("puts the header on answers served by node-server, beside the handler's own headers", async () => {
    const server = await listen(appSetting("X-Request-Id", "abc"), { port: 0 });
    servers.push(server);
    for (const path of ["/fast", "/full"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get("x-request-id")).toBe("abc");
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect(await response.json()).toEqual({ ok: true });
    }
    expect((await fetch(`${server.url}/full`)).headers.get("x-own")).toBe("kept");
    // corsJson's CORS headers travel the same way.
    const fast = await fetch(`${server.url}/fast`);
    expect(fast.headers.get("access-control-allow-origin")).toBe("*");
    expect(fast.headers.get("access-control-expose-headers")).toContain("PAYMENT-RESPONSE");
  });

  it("falls back to the context's headers outside node-server (app.request)", async () => {
    const response = await appSetting("X-Request-Id", "abc").request("/fast");
    expect(response.headers.get("x-request-id")).toBe("abc");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("content-type")).toBe("application/json");
  });
});
