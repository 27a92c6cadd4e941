import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { hexToBigInt, isHex, numberToHex } from "viem";

type Call = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };
type Answer = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: unknown };

/** Which of the two nodes answers a call. */
export type Node = "ahead" | "behind";

/** Where each method carries its block: the index of the block parameter. */
const blockParam: Record<string, number> = {
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getBalance: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_simulateV1: 1,
  eth_estimateGas: 1,
};

export type SplitHeightRpc = {
  url: string;
  /** How many blocks the node behind is behind the chain (0: both nodes at the head). */
  lag: number;
  /**
   * Which node answers. `requests`: each HTTP request goes whole to one node, in turn (`order`);
   * `entries`: each entry of a batch goes to the node `pick` names, as load balancers that split
   * batches do.
   */
  route: "requests" | "entries";
  /** `requests`: the nodes in turn, one per request (repeats). */
  order: Node[];
  /** `entries`: the node of each call. */
  pick: (call: { method: string; index: number }) => Node;
  /**
   * What the node behind answers to eth_getLogs up to a block it does not have: `error` as geth
   * ("block range extends beyond current head block"), `clamp` as anvil (the logs up to its head,
   * silently fewer).
   */
  beyondHead: "error" | "clamp";
  /** The methods each node answered, in order. */
  answered: { node: Node; method: string }[];
  close(): Promise<void>;
};

/**
 * A load balancer in front of a real chain with two nodes: one at the head, and one `lag` blocks
 * behind, which answers as a node that has not seen the last blocks does: its eth_blockNumber and
 * "latest" are `lag` blocks old, state at a block it does not have is "header not found", logs up
 * to such a block are refused or silently cut at its head. For tests of what a check says when
 * consecutive calls, or the entries of one batch, meet nodes at different heights.
 * @example const rpc = await startSplitHeightRpc(world.chains.base.rpcUrl); rpc.lag = 3;
 */
export async function startSplitHeightRpc(upstream: string): Promise<SplitHeightRpc> {
  const sockets = new Set<Socket>();
  let turn = 0;
  const proxy: SplitHeightRpc = {
    url: "",
    lag: 0,
    route: "requests",
    order: ["ahead"],
    pick: () => "ahead",
    beyondHead: "error",
    answered: [],
    close: async () => {},
  };

  const post = async (body: unknown): Promise<unknown> => {
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return answer.json();
  };

  const forward = async (calls: Call[]): Promise<Answer[]> =>
    calls.length === 0 ? [] : ((await post(calls)) as Answer[]);

  /** The calls as the node behind sees them: its head, its "latest", the blocks it lacks. */
  const asBehind = async (calls: Call[]): Promise<Answer[]> => {
    if (calls.length === 0) return [];
    const chainHead = hexToBigInt(
      ((await post({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as Answer)
        .result as `0x${string}`,
    );
    const head = chainHead - BigInt(proxy.lag);
    const own: Answer[] = [];
    const passed: Call[] = [];
    const lacking = (id: unknown, message: string): Answer => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32000, message },
    });
    const atOrBelowHead = (tag: unknown): { tag: unknown; lacks: boolean } => {
      if (tag === undefined || tag === "latest" || tag === "pending" || tag === "safe") {
        return { tag: numberToHex(head), lacks: false };
      }
      if (typeof tag === "string" && isHex(tag)) {
        return { tag, lacks: hexToBigInt(tag) > head };
      }
      return { tag, lacks: false };
    };
    for (const call of calls) {
      const method = call.method ?? "";
      const params = [...(call.params ?? [])];
      if (method === "eth_blockNumber") {
        own.push({ jsonrpc: "2.0", id: call.id, result: numberToHex(head) });
        continue;
      }
      const at = blockParam[method];
      if (at !== undefined) {
        const { tag, lacks } = atOrBelowHead(params[at]);
        if (lacks) {
          own.push(lacking(call.id, "header not found"));
          continue;
        }
        params[at] = tag;
      }
      if (method === "eth_getLogs") {
        const filter = { ...(params[0] as Record<string, unknown>) };
        const { tag, lacks } = atOrBelowHead(filter.toBlock);
        if (lacks && proxy.beyondHead === "error") {
          own.push(lacking(call.id, "block range extends beyond current head block"));
          continue;
        }
        filter.toBlock = lacks ? numberToHex(head) : tag;
        params[0] = filter;
      }
      if (method === "ots_searchTransactionsBefore") {
        // Page start 0 is "from the head": this node's head.
        const start = Number(params[1] ?? 0);
        params[1] = start === 0 || start > Number(head) + 1 ? Number(head) + 1 : start;
      }
      passed.push({ ...call, params });
    }
    return [...own, ...(await forward(passed))];
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const nodeOf = (call: Call, index: number): Node => {
      if (proxy.route === "entries") return proxy.pick({ method: call.method ?? "", index });
      return proxy.order[turn % proxy.order.length] ?? "ahead";
    };
    const nodes = calls.map(nodeOf);
    if (proxy.route === "requests") turn++;
    for (const [index, call] of calls.entries()) {
      proxy.answered.push({ node: nodes[index] as Node, method: call.method ?? "" });
    }
    const [ahead, behind] = await Promise.all([
      forward(calls.filter((_, index) => nodes[index] === "ahead")),
      asBehind(calls.filter((_, index) => nodes[index] === "behind")),
    ]);
    const byId = new Map([...ahead, ...behind].map((answer) => [answer.id, answer]));
    const answers = calls.map((call) => byId.get(call.id));
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
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
  return proxy;
}
