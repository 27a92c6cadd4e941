import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  demoAccounts,
  demoContracts,
  devnetAccounts,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { type ChainReader, createChainReader } from "./createChainReader";

// The reader against the seeded local world: five chains, the stablecoins at their mainnet
// addresses and the demo addresses, all created with real transactions by the devnet seeder.
describe("createChainReader against the local world", () => {
  let world: World;
  let reader: ChainReader;

  beforeAll(async () => {
    // Reads only: the run's shared world.
    world = sharedWorld();
    reader = createChainReader({ rpcUrls: worldRpcUrls(world) });
  });

  it("reads USDC and USDT balances and the nonce of the active EOA on base", async () => {
    const facts = await reader.read(devnetAccounts.activeOnBase.address, "base");
    expect(facts).toMatchObject({
      status: "ok",
      kind: "eoa",
      outgoingTxs: 3,
      usdc: { raw: "2460000000", formatted: "2460", symbol: "USDC" },
      usdt: { raw: "100000000", formatted: "100", symbol: "USDT" },
      usdcBridged: { raw: "0", symbol: "USDbC" },
    });
  });

  it("sees bridged USDC.e without native USDC on arbitrum", async () => {
    const facts = await reader.read(devnetAccounts.bridgedUsdcOnlyOnArbitrum.address, "arbitrum");
    expect(facts).toMatchObject({
      status: "ok",
      outgoingTxs: 0,
      usdc: { raw: "0" },
      usdcBridged: { raw: "250000000", formatted: "250", symbol: "USDC.e" },
      native: { raw: "0" },
    });
  });

  it("classifies the published wallet kinds of the demo world", async () => {
    const read = (address: Address, chain: ChainName = "base") => reader.read(address, chain);
    const [guestbook, safeHere, safeThere, usedSafe, account, delegated, swept, token, nft] =
      await Promise.all([
        read(demoContracts.guestbookOnBase),
        read(demoAccounts.safeOnEthereum),
        read(demoAccounts.safeOnEthereum, "ethereum"),
        read(demoAccounts.usedSafeOnBase),
        read(demoAccounts.smartAccountOnBase),
        read(devnetAccounts.delegatedOnBase.address),
        read(devnetAccounts.sweptOnBase.address),
        read(demoContracts.tokenOnBase),
        read(demoContracts.collectionOnBase),
      ]);
    expect(guestbook).toMatchObject({
      isContract: true,
      kind: "contract",
      receiveSimulation: { outcome: "rejected" },
    });
    expect(safeHere).toMatchObject({ isContract: false, kind: "eoa", outgoingTxs: 0 });
    expect(safeThere).toMatchObject({
      isContract: true,
      kind: "safe",
      kindLabel: "Safe (3 owners, threshold 2)",
      outgoingTxs: 0,
      accountNonce: 1,
      usdc: { formatted: "10000" },
    });
    expect(usedSafe).toMatchObject({ kindLabel: "Safe (2 owners, threshold 1)", outgoingTxs: 1 });
    expect(account).toMatchObject({
      kind: "smart-account",
      kindLabel: "ERC-4337 smart account",
      entryPoint: demoContracts.entryPointV08,
      outgoingTxs: 1,
      receiveSimulation: { outcome: "kept" },
    });
    expect(account.implementation).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(delegated).toMatchObject({
      isContract: false,
      kind: "eip7702-delegated",
      kindLabel: "Simple7702Account smart account (EIP-7702)",
      delegate: demoContracts.simple7702OnBase,
      delegateAssessment: { category: "wallet", matchedBy: "codeHash" },
      outgoingTxs: 2,
    });
    expect(swept).toMatchObject({
      kind: "eip7702-delegated",
      delegateAssessment: { category: "unknown" },
      receiveSimulation: { outcome: "forwarded" },
    });
    expect(token).toMatchObject({ kind: "token", kindLabel: "ERC-20 token contract (DEMO)" });
    expect(nft).toMatchObject({ kind: "nft", token: { standard: "erc721", symbol: "DEMONFT" } });
  });

  it("marks only the receive simulation unavailable behind an endpoint without eth_simulateV1", async () => {
    const refusing = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const batch = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id: number;
        method: string;
        params: unknown[];
      }[];
      const upstream = (await (
        await fetch(world.chains.base.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(batch),
        })
      ).json()) as { id: number }[];
      // What a public endpoint without eth_simulateV1 answers for that one entry.
      const simulations = new Set(
        batch.filter((entry) => entry.method === "eth_simulateV1").map((e) => e.id),
      );
      const answer = upstream.map((entry) =>
        simulations.has(entry.id)
          ? {
              jsonrpc: "2.0",
              id: entry.id,
              error: { code: -32601, message: "the method eth_simulateV1 does not exist" },
            }
          : entry,
      );
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = refusing.address() as AddressInfo;
      const limited = createChainReader({
        rpcUrls: { ...worldRpcUrls(world), base: [`http://127.0.0.1:${port}`] },
      });
      const facts = await limited.read(demoAccounts.usedSafeOnBase, "base");
      expect(facts).toMatchObject({
        status: "ok",
        kind: "safe",
        outgoingTxs: 1,
        receiveSimulation: { outcome: "unavailable" },
      });
      expect(facts.receiveSimulation?.error).toMatch(/eth_simulateV1 does not exist/);
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it("reads one address on all five chains with one upstream request per chain", async () => {
    const before = reader.stats();
    const all = await Promise.all(
      chainNames.map((name) => reader.read(devnetAccounts.payer.address, name)),
    );
    expect(all.map((facts) => facts.status)).toEqual(chainNames.map(() => "ok"));
    expect(all[0]?.usdc?.formatted).toBe("1000");
    const after = reader.stats();
    expect(after.upstreamRequests - before.upstreamRequests).toBe(5);
    for (const name of chainNames) {
      expect(after.perChain[name] - before.perChain[name]).toBe(1);
    }
  });
});
