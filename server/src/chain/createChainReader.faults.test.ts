import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcRequest } from "./buildFactsBatch";
import { createChainReader } from "./createChainReader";
import { answerFactsBatch } from "./fakeRpc";

// Real HTTP servers on loopback that misbehave the ways public RPC endpoints do. Each fault is
// tried alone (the chain is unavailable, with a short reason) and in front of a healthy endpoint
// (the reader falls back and the facts are read).

const who: Address = "0x1111111111111111111111111111111111111111";
type Handler = (batch: JsonRpcRequest[], res: ServerResponse, req: IncomingMessage) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    handler(JSON.parse(Buffer.concat(chunks).toString("utf8")), res, req);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/secret-key-path`;
}

const healthy: Handler = (batch, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(answerFactsBatch(batch, { chainId: chains.base.id, nonce: 5n })));
};

// Bytes the huge-body server managed to write before the reader hung up.
let hugeBytesWritten = 0;
const fiftyMegabytes = 50 * 1024 * 1024;

const faults: Record<string, { handler: Handler; reason: RegExp }> = {
  hang: { handler: () => {}, reason: /timeout after 2000 ms/ },
  garbage: {
    handler: (_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>gateway says hello</html>");
    },
    reason: /malformed response: not JSON/,
  },
  "HTTP 429": {
    handler: (_, res) => {
      res.writeHead(429, { "retry-after": "1" });
      res.end("rate limited");
    },
    reason: /HTTP 429/,
  },
  "wrong chain id": {
    handler: (batch, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answerFactsBatch(batch, { chainId: chains.ethereum.id })));
    },
    reason: /wrong chain: expected id 8453, endpoint reports 1/,
  },
  "huge body": {
    handler: (_, res) => {
      hugeBytesWritten = 0;
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const push = () => {
        while (hugeBytesWritten < fiftyMegabytes && !res.destroyed) {
          hugeBytesWritten += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", push);
        }
        res.end();
      };
      push();
    },
    reason: /response larger than 1000000 bytes, aborted/,
  },
};

// 2 s per endpoint: the hang fault needs a budget to run out, and on a loaded machine a healthy
// loopback answer (or streaming a megabyte before the cap) must still fit in it.
function reader(urls: string[]) {
  const rpcUrls = { base: urls } as unknown as Record<ChainName, string[]>;
  return createChainReader({ rpcUrls, timeoutMs: 2000 });
}

describe("createChainReader against faulty endpoints (real HTTP servers)", () => {
  it.each(Object.entries(faults))(
    "%s alone: unavailable, reason named, no URL",
    async (_, fault) => {
      const facts = await reader([await serve(fault.handler)]).read(who, "base");
      expect(facts.status).toBe("unavailable");
      expect(facts.kind).toBeNull();
      expect(facts.error).toMatch(fault.reason);
      expect(facts.error).not.toContain("secret-key-path");
    },
  );

  it.each(Object.entries(faults))(
    "%s first: falls back to the healthy endpoint",
    async (_, fault) => {
      const urls = [await serve(fault.handler), await serve(healthy)];
      const facts = await reader(urls).read(who, "base");
      expect(facts).toMatchObject({ status: "ok", kind: "eoa", outgoingTxs: 5 });
      // Asked in full there: a huge body from the first does not make the second's answer lean.
      expect(facts.receiveSimulation?.outcome).toBe("kept");
    },
  );

  it("stops reading a 50 MB answer soon after the 1 MB cap instead of buffering it", async () => {
    const facts = await reader([await serve(faults["huge body"]?.handler as Handler)]).read(
      who,
      "base",
    );
    expect(facts.error).toMatch(/response larger than/);
    // The server is still trying to write when the reader cancels: far less than 50 MB goes out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hugeBytesWritten).toBeLessThan(fiftyMegabytes / 2);
  });

  it("refuses an answer whose declared length is over the cap without reading it", async () => {
    const url = await serve((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000000" });
      res.write("[");
    });
    const facts = await reader([url]).read(who, "base");
    expect(facts.error).toMatch(/response larger than 1000000 bytes/);
  });
});
