import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Listening, listen } from "./listen";
import { rawExchange as exchange } from "./testing/rawExchange";

// A real Node server through listen (serveApi underneath): these requests parse as HTTP, but
// @hono/node-server cannot build their URL, so the app never sees them.
describe("serveApi", () => {
  let server: Listening;
  beforeAll(async () => {
    const app = new Hono();
    app.get("/ok", (c) => c.json({ ok: true }));
    server = await listen(app, { port: 0 });
  });
  afterAll(() => server?.close());

  it.each([
    ["no Host on HTTP/1.1", "GET /ok HTTP/1.1\r\n\r\n"],
    ["a Host that is no host", "GET /ok HTTP/1.1\r\nHost: [::zz\r\n\r\n"],
    ["the * target", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n"],
  ])("answers %s with the JSON 400 malformed_request, not an empty 400", async (_name, bytes) => {
    const answer = await exchange(server.port, bytes);
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain("access-control-allow-origin: *");
    expect(head.toLowerCase()).toContain("connection: close");
    // node-server writes the body chunked or with a length: read the JSON either way.
    const json = body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1);
    expect(JSON.parse(json)).toEqual({
      error: { code: "malformed_request", message: expect.stringContaining("Host") },
    });
  });

  it("serves a good request as before", async () => {
    const response = await fetch(`${server.url}/ok`);
    expect(await response.json()).toEqual({ ok: true });
  });
});
