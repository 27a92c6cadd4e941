import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chains } from "@presend/shared/chains/chains";
import { type Address, getAddress, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RailWorld, startRailWorld, type TransferPlan } from "../world/startRailWorld";
import { rpcEvmInflowSource } from "./evmInflowSource";

const payTo = getAddress("0xde000000000000000000000000000000000000aa");
const other = getAddress("0xde000000000000000000000000000000000000bb");
const window = { from: new Date("2026-10-22T00:00:00Z"), to: new Date("2026-11-21T00:00:00Z") };

// Real transfers on a local arbitrum chain: two before/after the window, the rest inside it.
const plan: TransferPlan = [
  { chain: "arbitrum", from: "alice", to: payTo, amount: "1", at: "2026-10-21T23:59:59Z" },
  { chain: "arbitrum", from: "alice", to: payTo, amount: "0.25", at: "2026-10-22T00:00:00Z" },
  { chain: "arbitrum", from: "bob", to: payTo, amount: "0.5", at: "2026-11-01T12:00:00Z" },
  { chain: "arbitrum", from: "alice", to: payTo, amount: "0.000001", at: "2026-11-10T12:00:00Z" },
  { chain: "arbitrum", from: "bob", to: other, amount: "2", at: "2026-11-11T12:00:00Z" },
  { chain: "arbitrum", from: "carol", to: payTo, amount: "3", at: "2026-11-20T23:59:59Z" },
  { chain: "arbitrum", from: "carol", to: payTo, amount: "7", at: "2026-11-21T00:00:00Z" },
];
const inWindow = plan.filter(
  (entry) =>
    entry.to === payTo &&
    Date.parse(entry.at) >= window.from.getTime() &&
    Date.parse(entry.at) < window.to.getTime(),
);

let world: RailWorld;
let refusing: Server;
let refusingUrl: string;
let refusals = 0;

beforeAll(async () => {
  world = await startRailWorld({ plan });
  // A provider in front of anvil that refuses eth_getLogs over more than 3 blocks, as public RPCs do.
  refusing = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const call = Array.isArray(body) ? undefined : body;
    if (call?.method === "eth_getLogs") {
      const [filter] = call.params as [{ fromBlock: string; toBlock: string }];
      if (Number(filter.toBlock) - Number(filter.fromBlock) + 1 > 3) {
        refusals++;
        response.writeHead(200, { "content-type": "application/json" });
        const error = { code: -32005, message: "block range too large: max 3 blocks" };
        response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error }));
        return;
      }
    }
    const upstream = await fetch(world.chains.arbitrum.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    response.writeHead(upstream.status, { "content-type": "application/json" });
    response.end(await upstream.text());
  });
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (refusing ? refusing.close(() => resolve()) : resolve()));
  await world?.stop();
});

describe("rpcEvmInflowSource", () => {
  it("counts USDC transfers to each address inside [from, to) found by block timestamp", async () => {
    const source = rpcEvmInflowSource(world.chains.arbitrum);
    const result = await source.measure([payTo, other], window);
    const inflow = result.inflows.get(payTo);
    expect(inflow?.tx).toBe(inWindow.length);
    expect(inflow?.raw).toBe(
      inWindow.reduce((sum, entry) => sum + parseUnits(entry.amount, 6), 0n),
    );
    expect(inflow?.senders).toBe(new Set(inWindow.map((entry) => entry.from)).size);
    expect(result.inflows.get(other)).toEqual({ tx: 1, raw: parseUnits("2", 6), senders: 1 });
    expect(result.refusedRanges).toBe(0);
    expect(chains.arbitrum.usdc.address).toBe(world.chains.arbitrum.usdc);
  });

  it("halves the block range when the provider refuses it and gets the same figures", async () => {
    const direct = await rpcEvmInflowSource(world.chains.arbitrum).measure([payTo, other], window);
    const halved = await rpcEvmInflowSource({
      ...world.chains.arbitrum,
      rpcUrl: refusingUrl,
    }).measure([payTo, other], window);
    expect(refusals).toBeGreaterThan(0);
    expect(halved.refusedRanges).toBeGreaterThan(0);
    expect(halved.inflows).toEqual(direct.inflows);
    expect([halved.fromBlock, halved.toBlock]).toEqual([direct.fromBlock, direct.toBlock]);
  });

  it("reports an empty window with zero inflow rather than failing", async () => {
    const early = { from: new Date("2020-01-01T00:00:00Z"), to: new Date("2020-02-01T00:00:00Z") };
    const result = await rpcEvmInflowSource(world.chains.arbitrum).measure(
      [payTo as Address],
      early,
    );
    expect(result.inflows.get(payTo)).toEqual({ tx: 0, raw: 0n, senders: 0 });
    expect(result.toBlock).toBeLessThan(result.fromBlock);
  });
});
