import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { serveWithDrain } from "../lifecycle/serveWithDrain";
import { idleKeepAliveMs } from "./keepIdleConnections";
import { listen } from "./listen";

const nginxConf = readFileSync(new URL("../../../deploy/nginx.conf", import.meta.url), "utf8");

/** GETs `url` through `agent`; resolves whether the request went down a reused connection. */
function get(agent: Agent, url: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, reused: outgoing.reusedSocket }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const app = new Hono().get("/", (c) => c.text("ok"));

describe("idle keep-alive connections", () => {
  // The API's own listener (npm start) and the one tests and tools serve with.
  it.each([
    [
      "serveWithDrain",
      async () => {
        const server = await serveWithDrain(app, { port: 0 });
        return { url: server.url, close: () => server.drain(1_000) };
      },
    ],
    ["listen", () => listen(app)],
  ])(
    "%s keeps one open past Node's 5 s default",
    async (_, start) => {
      const server = await start();
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        expect(await get(agent, server.url)).toEqual({ status: 200, reused: false });
        // Idle past the default (5 s, plus the second Node grants on top): a server left at the
        // default has dropped the connection by now.
        await new Promise((resolve) => setTimeout(resolve, 7_000));
        expect(await get(agent, server.url)).toEqual({ status: 200, reused: true });
      } finally {
        agent.destroy();
        await server.close();
      }
    },
    15_000,
  );

  it("outlast the proxy in front: nginx lets go of an idle upstream connection first", () => {
    // The block ends at its closing brace on a line of its own ({{UPSTREAMS}} holds braces too).
    const upstream = nginxConf.match(/upstream presend_api \{[\s\S]*?\n\s*\}\n/)?.[0] ?? "";
    const seconds = Number(upstream.match(/keepalive_timeout (\d+)s;/)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds * 1_000).toBeLessThan(idleKeepAliveMs);
  });
});
