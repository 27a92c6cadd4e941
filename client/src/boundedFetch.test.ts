import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedFetch } from "./boundedFetch";

// A real local HTTP server answering as a broken or hostile API would: headers and then a body
// that never ends, a body without end, an answer that never comes.
describe("boundedFetch", () => {
  let server: Server;
  let url: string;
  const open: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/report") {
        response.writeHead(200, { "content-type": "application/json", "payment-response": "x" });
        response.end(JSON.stringify({ ok: true }));
      } else if (request.url === "/empty") {
        response.writeHead(204).end();
      } else if (request.url === "/trickle") {
        // The headers at once, then a byte now and then, never the end.
        response.writeHead(200, { "payment-response": "settled" });
        response.write("{");
        const drip = setInterval(() => response.write(" "), 20);
        response.on("close", () => clearInterval(drip));
        open.push(response);
      } else if (request.url === "/huge") {
        response.writeHead(402, { "content-type": "application/json" });
        const chunk = Buffer.alloc(64 * 1024, 32);
        const pour = () => {
          while (response.write(chunk)) {}
        };
        response.on("drain", pour);
        pour();
        open.push(response);
      } else {
        // Never answers.
        open.push(response);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const response of open) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("passes a complete answer through: status, headers and body", async () => {
    const answer = await boundedFetch(fetch)(`${url}/report`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("payment-response")).toBe("x");
    expect(await answer.clone().json()).toEqual({ ok: true });
    expect(await answer.json()).toEqual({ ok: true });
    expect((await boundedFetch(fetch)(`${url}/empty`)).status).toBe(204);
  });

  it("fails a request whose answer never comes, once its time is up", async () => {
    const started = Date.now();
    await expect(boundedFetch(fetch, { timeoutMs: 300 })(`${url}/silent`)).rejects.toThrow(
      /No complete answer within/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("gives the headers at once and errors a body that never ends, once its time is up", async () => {
    const answer = await boundedFetch(fetch, { timeoutMs: 300 })(`${url}/trickle`);
    expect(answer.headers.get("payment-response")).toBe("settled");
    await expect(answer.json()).rejects.toThrow(/No complete answer within/);
  });

  it("errors a body past the most an answer may hold", async () => {
    const answer = await boundedFetch(fetch, { maxBytes: 1024 * 1024 })(`${url}/huge`);
    expect(answer.status).toBe(402);
    await expect(answer.clone().text()).rejects.toThrow(/larger than 1048576 bytes/);
  });
});
