import type { World } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// Free /health must not let callers multiply upstream calls: 200 calls at once made 1000.
describe("upstreamAmplification: GET /health", () => {
  let world: World;
  let rpc: FaultyRpc;
  let stack: PaidStack;

  beforeAll(async () => {
    // Reads only (through its own counting proxy): the run's shared world.
    world = sharedWorld();
    rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    stack = await startPaidStack({ world, rpcUrls: { base: [rpc.url] } });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
  });

  it("answers 200 concurrent calls with one reading of the chains", async () => {
    const before = rpc.calls.filter((method) => method === "eth_blockNumber").length;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => stack.app.request("/health")),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(rpc.calls.filter((method) => method === "eth_blockNumber").length - before).toBe(1);
  });

  it("reports a chain whose RPC answers 50 MB as unreachable without reading it whole", async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    rpc.mode = "hugeBody";
    try {
      const rssBefore = process.memoryUsage().rss;
      const body = await (await stack.app.request("/health")).json();
      expect(body.status).toBe("degraded");
      expect(body.chains.find((chain: { name: string }) => chain.name === "base")).toMatchObject({
        reachable: false,
      });
      expect(JSON.stringify(body)).not.toContain(rpc.url);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
    } finally {
      rpc.mode = "pass";
    }
  });
});
