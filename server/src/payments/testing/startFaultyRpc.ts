import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * What the proxy does to JSON-RPC traffic. `pass`: forwards. `hang`: never answers. `garbage`:
 * answers bytes that are not JSON. `http429`: rate-limited. `wrongChainId`: eth_chainId says
 * Ethereum (1), the rest is forwarded. `hugeBody`: a 50 MB answer. `receiptErrors`:
 * eth_getTransactionReceipt fails with a JSON-RPC error. `dropSendRaw`: eth_sendRawTransaction is
 * forwarded, then the connection is cut before the answer. `swallowFirstSend`: the first
 * eth_sendRawTransaction is cut without forwarding it. `downAfterSend`: like dropSendRaw, and
 * from then on every request hangs (the chain "goes down" right after the broadcast).
 * `refuseLogRange`: eth_getLogs answers -32005 "block range too large" (a public endpoint's range
 * cap); `capLogs`: eth_getLogs answers -32005 "query returned more than 10000 results";
 * `noOtterscan`: ots_* methods answer -32601 "method not found"; the rest of a batch is forwarded.
 */
export type FaultMode =
  | "pass"
  | "hang"
  | "garbage"
  | "http429"
  | "wrongChainId"
  | "hugeBody"
  | "receiptErrors"
  | "dropSendRaw"
  | "swallowFirstSend"
  | "downAfterSend"
  | "refuseLogRange"
  | "capLogs"
  | "noOtterscan";

// The JSON-RPC errors the history faults answer in place of the real ones.
const refusals: Partial<Record<FaultMode, { method: RegExp; code: number; message: string }>> = {
  refuseLogRange: { method: /^eth_getLogs$/, code: -32005, message: "block range too large" },
  capLogs: {
    method: /^eth_getLogs$/,
    code: -32005,
    message: "query returned more than 10000 results",
  },
  noOtterscan: {
    method: /^ots_/,
    code: -32601,
    message: "the method ots_searchTransactionsBefore does not exist/is not available",
  },
};

// The single calls the call faults answer with a JSON-RPC error instead of forwarding them.
const failedCalls: Partial<
  Record<FaultMode, { method: string; error: { code: number; message: string } }>
> = {
  receiptErrors: {
    method: "eth_getTransactionReceipt",
    error: { code: -32000, message: "header not found" },
  },
};

export type FaultyRpc = {
  url: string;
  mode: FaultMode;
  /**
   * With any mode: eth_getLogs over more blocks than this is refused with a JSON-RPC error, as
   * public endpoints cap ranges (null: no cap).
   */
  maxLogRange: number | null;
  /**
   * With any mode: calls of this one JSON-RPC method (single or in a batch) answer a JSON-RPC
   * error, as a public endpoint rate-limits one method (null: none).
   */
  failingMethod: string | null;
  /** JSON-RPC methods seen since start, in order. */
  calls: string[];
  /** `hugeBody`: how many answers were started and how many bytes of them went out in all. */
  hugeBody: { answers: number; bytesSent: number };
  close(): Promise<void>;
};

/**
 * A fault-injecting JSON-RPC proxy in front of a real chain, for tests of what a payer gets,
 * what is charged and what is recorded when the payment chain misbehaves. Set `mode` at any time.
 * @example const rpc = await startFaultyRpc(world.chains.base.rpcUrl); rpc.mode = "receiptErrors";
 */
export async function startFaultyRpc(upstream: string): Promise<FaultyRpc> {
  const sockets = new Set<Socket>();
  let down = false;
  let swallowed = false;
  let current: FaultMode = "pass";
  const proxy: FaultyRpc = {
    url: "",
    mode: "pass",
    maxLogRange: null,
    failingMethod: null,
    calls: [],
    hugeBody: { answers: 0, bytesSent: 0 },
    close: async () => {},
  };

  const forward = async (body: string) => {
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return answer.text();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let parsed: { method?: string; id?: unknown } | Array<{ method?: string }> = {};
    try {
      parsed = JSON.parse(body);
    } catch {}
    const methods = (Array.isArray(parsed) ? parsed : [parsed]).map((call) => call.method ?? "");
    proxy.calls.push(...methods);
    const mode = proxy.mode;
    const cut = () => request.socket.destroy();
    const hasMethod = (name: string) => methods.includes(name);

    if (down || mode === "hang") return; // never answered; close() cuts it
    if (mode === "garbage") {
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end("<html>502 Bad Gateway</html>\u0000{{{");
    }
    if (mode === "http429") {
      response.writeHead(429, { "content-type": "text/plain", "retry-after": "1" });
      return void response.end("Too Many Requests");
    }
    if (mode === "hugeBody") {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = `"${"x".repeat(1024 * 1024 - 2)}"`;
      let sent = 0;
      proxy.hugeBody.answers++;
      // Each chunk is counted once the socket took it: a reader that stops early stops this.
      const write = () => {
        while (sent < 50) {
          sent++;
          const more = response.write(chunk);
          proxy.hugeBody.bytesSent += chunk.length;
          if (!more) return void response.once("drain", write);
        }
        response.end();
      };
      response.on("error", () => {});
      return write();
    }
    if (mode === "wrongChainId" && !Array.isArray(parsed) && hasMethod("eth_chainId")) {
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, result: "0x1" }));
    }
    const failing = proxy.failingMethod;
    const rateLimited = { code: -32005, message: "rate limit exceeded" };
    const failed = failing === null ? failedCalls[mode] : { method: failing, error: rateLimited };
    if (failed && !Array.isArray(parsed) && hasMethod(failed.method)) {
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(
        JSON.stringify({ jsonrpc: "2.0", id: parsed.id, error: failed.error }),
      );
    }
    const refusal =
      failing === null ? refusals[mode] : { method: new RegExp(`^${failing}$`), ...rateLimited };
    if (refusal && Array.isArray(parsed)) {
      // Forward the batch, then answer the refused entries with the endpoint's error instead.
      const calls = parsed as Array<{ method?: string; id?: unknown }>;
      const refusedIds = new Set(
        calls.filter((call) => refusal.method.test(call.method ?? "")).map((call) => call.id),
      );
      const answers = JSON.parse(await forward(body)) as Array<{ id?: unknown }>;
      const replaced = answers.map((answer) =>
        refusedIds.has(answer.id)
          ? {
              jsonrpc: "2.0",
              id: answer.id,
              error: { code: refusal.code, message: refusal.message },
            }
          : answer,
      );
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(JSON.stringify(replaced));
    }
    const cap = proxy.maxLogRange;
    if (cap !== null && !Array.isArray(parsed) && hasMethod("eth_getLogs")) {
      const [filter] = (parsed as { params?: Array<{ fromBlock?: string; toBlock?: string }> })
        .params ?? [{}];
      const from = Number(filter?.fromBlock ?? 0);
      const to = Number(filter?.toBlock ?? Number.MAX_SAFE_INTEGER);
      if (!(to - from + 1 <= cap)) {
        response.writeHead(200, { "content-type": "application/json" });
        return void response.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: parsed.id,
            error: { code: -32600, message: `eth_getLogs is limited to a ${cap} block range` },
          }),
        );
      }
    }
    if (hasMethod("eth_sendRawTransaction")) {
      if (mode === "swallowFirstSend" && !swallowed) {
        swallowed = true;
        return cut();
      }
      if (mode === "dropSendRaw" || mode === "downAfterSend") {
        await forward(body);
        if (mode === "downAfterSend") down = true;
        return cut();
      }
    }
    const answer = await forward(body);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => request.socket.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  Object.defineProperty(proxy, "mode", {
    get: () => current,
    set: (next: FaultMode) => {
      current = next;
      down = false;
      swallowed = false;
    },
  });
  return proxy;
}
