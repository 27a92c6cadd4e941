import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type ReplayServer, startReplayServer } from "../replay/startReplayServer";
import { rpcSolanaInflowSource } from "./solanaInflowSource";

const recorded = fileURLToPath(new URL("../../fixtures/http", import.meta.url));
const window = { from: new Date("2026-10-22T00:00:00Z"), to: new Date("2026-11-21T00:00:00Z") };
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer({ dir: recorded });
});
afterAll(() => replay?.stop());

// Expected figures are recomputed from the recorded transactions, so the test follows the fixture.
async function expectedFor(owner: string) {
  const recordings = z
    .array(
      z.object({
        request: z.object({
          jsonrpc: z.object({ method: z.string(), params: z.array(z.unknown()) }),
        }),
        response: z.object({ json: z.object({ result: z.any() }) }),
      }),
    )
    .parse(JSON.parse(await readFile(`${recorded}/solana-rpc.example.json`, "utf8")));
  const txs = recordings
    .filter((r) => r.request.jsonrpc.method === "getTransaction")
    .map((r) => r.response.json.result)
    .filter(
      (tx) =>
        tx.blockTime >= window.from.getTime() / 1000 && tx.blockTime < window.to.getTime() / 1000,
    )
    .filter((tx) => tx.meta.postTokenBalances.some((b: { owner: string }) => b.owner === owner));
  const deltas = txs.map(
    (tx) =>
      BigInt(tx.meta.postTokenBalances[0].uiTokenAmount.amount) -
      BigInt(tx.meta.preTokenBalances[0].uiTokenAmount.amount),
  );
  return {
    tx: txs.length,
    raw: deltas.filter((d) => d > 0n).reduce((a, b) => a + b, 0n),
    inflowTx: deltas.filter((d) => d > 0n).length,
  };
}

describe("rpcSolanaInflowSource (recorded JSON-RPC)", () => {
  it("measures inflow through the owner's USDC token accounts inside the window only", async () => {
    const owners = [
      "DemoSummarizePayTo1111111111111111111111111",
      "DemoNewsDigestPayTo111111111111111111111111",
    ];
    const source = rpcSolanaInflowSource({
      rpcUrl: "https://solana-rpc.example/",
      fetch: replay.fetch,
    });
    const result = await source.measure(owners, window);
    for (const owner of owners) expect(result.inflows.get(owner)).toEqual(await expectedFor(owner));
    // An outflow is a transaction of the address but not an inflow.
    const summarize = result.inflows.get(owners[0] ?? "");
    expect(summarize && summarize.tx > summarize.inflowTx).toBe(true);
    expect(result.quality.failedSkipped).toBe(1);
    expect(result.quality.truncated).toEqual([]);
    expect(replay.misses).toEqual([]);
  });

  it("reports an owner without a USDC token account as zero activity", async () => {
    const source = rpcSolanaInflowSource({
      rpcUrl: "https://solana-rpc.example/",
      fetch: replay.fetch,
    });
    const owner = "DemoPictureGenPayTo111111111111111111111111";
    const result = await source.measure([owner], window);
    expect(result.inflows.get(owner)).toEqual({ tx: 0, raw: 0n, inflowTx: 0 });
  });

  it("fails loudly on an RPC error instead of reporting zero", async () => {
    const source = rpcSolanaInflowSource({
      rpcUrl: "https://solana-rpc.example/",
      fetch: replay.fetch,
    });
    await expect(
      source.measure(["DemoUnrecordedOwner1111111111111111111111111"], window),
    ).rejects.toThrow(/getTokenAccountsByOwner: no recording/);
  });
});
