import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Listening, listen } from "./listen";
import { rawExchange as exchange } from "./testing/rawExchange";

function parse(answer: string) {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf(":");
      return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) };
}

// A real Node server: these requests never reach Hono, Node's parser refuses them first.
describe("answerClientErrors", () => {
  let server: Listening;
  beforeAll(async () => {
    const app = new Hono();
    app.get("/ok", (c) => c.json({ ok: true }));
    // An answer that takes a while, as a paid check does: the broken request behind it arrives
    // while it is being made.
    app.post("/slow", async (c) => {
      const body = await c.req.json();
      await new Promise((done) => setTimeout(done, 300));
      return c.json({ slow: body });
    });
    server = await listen(app, { port: 0 });
  });
  afterAll(() => server?.close());

  it("answers headers over Node's 16 KB with 431 headers_too_large as JSON a page can read", async () => {
    const answer = parse(
      await exchange(
        server.port,
        `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      ),
    );
    expect(answer.status).toBe(431);
    expect(answer.body.error.code).toBe("headers_too_large");
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(answer.headers.connection).toBe("close");
  });

  it("answers a method or framing Node cannot parse with 400 malformed_request", async () => {
    for (const bytes of [
      "FOO /ok HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      "GET /ok HTTP/1.1\r\nHost x\r\n\r\n",
    ]) {
      const answer = parse(await exchange(server.port, bytes));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: {
          code: "malformed_request",
          message:
            "The request is not HTTP this server can read (method, request line or framing).",
        },
      });
      expect(answer.headers["access-control-allow-origin"]).toBe("*");
    }
  });

  it("answers a CONNECT (which Node would drop unanswered) with 404 not_found as JSON", async () => {
    const answer = parse(
      await exchange(server.port, "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n"),
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("not_found");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(answer.headers.connection).toBe("close");
  });

  it("answers requests pipelined ahead of a broken one first, in order, then refuses it", async () => {
    const slow = '{"paid":true}';
    const answer = await exchange(
      server.port,
      "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n" +
        `POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${slow.length}\r\n\r\n${slow}` +
        "GARBAGE / HTTP/1.1\r\n\r\n",
      { halfClose: false },
    );
    // Each answer in the place of its request: the refusal written at once would have taken the
    // first one's, and a client would read "malformed" for the check it sent second.
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([200, 200, 400]);
    expect(answer).toContain('{"ok":true}');
    expect(answer).toContain('{"slow":{"paid":true}}');
    const refusal = answer.slice(answer.lastIndexOf("HTTP/1.1 "));
    expect(parse(refusal).body.error.code).toBe("malformed_request");
    expect(parse(refusal).headers.connection).toBe("close");
  });

  it("refuses at once a request whose own body breaks, with nothing answered ahead of it", async () => {
    const answer = parse(
      await exchange(
        server.port,
        "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("malformed_request");
  });

  it("answers an Expect other than 100-continue with 417 expectation_failed as JSON, in its place", async () => {
    const answer = await exchange(
      server.port,
      "GET /ok HTTP/1.1\r\nHost: x\r\n\r\n" +
        "POST /slow HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
      { halfClose: false },
    );
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    expect(statuses).toEqual([200, 417]);
    const refusal = parse(answer.slice(answer.lastIndexOf("HTTP/1.1 ")));
    expect(refusal.body.error.code).toBe("expectation_failed");
    expect(refusal.headers["content-type"]).toBe("application/json");
    expect(refusal.headers["access-control-allow-origin"]).toBe("*");
    expect(refusal.headers.connection).toBe("close");
  });

  it("still serves a good request on the same server", async () => {
    const response = await fetch(`${server.url}/ok`);
    expect(await response.json()).toEqual({ ok: true });
  });
});
