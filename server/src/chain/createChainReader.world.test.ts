import { chainNames, chains } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContracts } from "../devnet/demoWorld";
import { devnetAccounts } from "../devnet/devnetAccounts";
import { startWorld, type World } from "../devnet/startWorld";
import { type ChainReader, createChainReader } from "./createChainReader";

// The reader against the seeded local world: five chains, the stablecoins at their mainnet
// addresses and the demo addresses, all created with real transactions by the devnet seeder.
describe("createChainReader against the local world", () => {
  let world: World;
  let reader: ChainReader;

  beforeAll(async () => {
    world = await startWorld();
    reader = createChainReader({
      rpcUrls: Object.fromEntries(
        chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
      ) as Record<(typeof chainNames)[number], string[]>,
    });
  });

  afterAll(() => world?.stop());

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

  it("classifies the demo contracts and the seeded EIP-7702 delegation", async () => {
    const [guestbook, multisigHere, multisigThere, usdc, delegated] = await Promise.all([
      reader.read(demoContracts.guestbookOnBase, "base"),
      reader.read(demoContracts.multisigOnEthereum, "base"),
      reader.read(demoContracts.multisigOnEthereum, "ethereum"),
      reader.read(chains.base.usdc.address, "base"),
      reader.read(devnetAccounts.delegatedOnBase.address, "base"),
    ]);
    expect(guestbook).toMatchObject({ isContract: true, kind: "contract" });
    expect(multisigHere).toMatchObject({ isContract: false, kind: "eoa", outgoingTxs: 0 });
    expect(multisigThere).toMatchObject({
      isContract: true,
      kind: "safe",
      usdc: { formatted: "10000" },
    });
    expect(usdc).toMatchObject({ isContract: true, kind: "token" });
    expect(delegated).toMatchObject({
      isContract: false,
      kind: "eip7702-delegated",
      delegate: demoContracts.batchExecutorOnBase,
      outgoingTxs: 2,
      usdc: { formatted: "50" },
    });
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
