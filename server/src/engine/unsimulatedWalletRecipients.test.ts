import {
  demoAccounts,
  devnetAccounts,
  recipientKinds,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { createEngine, type Engine } from "./createEngine";

// Many endpoints have no eth_simulateV1, and presend's receive simulation is the only read that
// shows what a Safe's singleton or a smart account's implementation does with a deposit (keep it,
// or pass it on): no code hash vouches for that code. Behind such an endpoint a used Safe or
// smart account was "ok" with that fact unread. Checked here through a proxy in front of the
// real Base chain that refuses eth_simulateV1 and forwards the rest.

describe("wallets with code when the test deposit cannot be run (real anvil chains)", () => {
  let world: World;
  let faulty: FaultyRpc;
  let engine: Engine;
  let fullEngine: Engine;

  beforeAll(async () => {
    // Reads only: the run's shared world, behind a proxy of this file's own.
    world = sharedWorld();
    const rpcUrls = worldRpcUrls(world);
    faulty = await startFaultyRpc(world.chains.base.rpcUrl);
    faulty.failingMethod = "eth_simulateV1";
    engine = createEngine({
      reader: createChainReader({ rpcUrls: { ...rpcUrls, base: [faulty.url] } }),
    });
    fullEngine = createEngine({ reader: createChainReader({ rpcUrls }) });
  });

  afterAll(async () => {
    await faulty?.close();
  });

  const wallets: { name: string; address: Address }[] = [
    { name: "a used Safe 1.4.1", address: demoAccounts.usedSafeOnBase },
    { name: "a used ERC-4337 SimpleAccount", address: demoAccounts.smartAccountOnBase },
    { name: "a used ERC-7579 account", address: recipientKinds.usedModularAccountOnBase },
  ];

  it.each(wallets)(
    "$name is caution, saying the test deposit could not be run",
    async ({ address }) => {
      // Fully read, the same wallet is ok: only the unread simulation makes the difference.
      const full = await fullEngine.check({ address, chain: "base" });
      if (full.type !== "report") throw new Error("base unreadable");
      expect(full.report.verdict.level).toBe("ok");

      const result = await engine.check({ address, chain: "base" });
      if (result.type !== "report") throw new Error("base unreadable");
      const { chain, verdict } = result.report;
      expect(chain.receiveSimulation).toMatchObject({ outcome: "unavailable" });
      expect(verdict.level).toBe("caution");
      expect(verdict.reasons[0]).toMatchObject({ code: "unclassified", level: "caution" });
      expect(verdict.reasons[0]?.message).toBe(
        "Part of Base's answer could not be read: what it does with a deposit (the test deposit could not be run) unknown.",
      );
      // The fact that was read is still said.
      expect(verdict.reasons.map((reason) => reason.code)).toContain("active_wallet");
      const deep = await engine.deep({ address, chain: "base" });
      if (deep.type !== "report") throw new Error("base unreadable");
      expect(deep.report.verdict.level).toBe("caution");
    },
  );

  it("keeps a plain EOA ok: no code runs on a deposit, so the simulation had nothing to tell", async () => {
    const result = await engine.check({
      address: devnetAccounts.activeOnBase.address,
      chain: "base",
    });
    if (result.type !== "report") throw new Error("base unreadable");
    expect(result.report.chain.receiveSimulation).toMatchObject({ outcome: "unavailable" });
    expect(result.report.verdict.level).toBe("ok");
  });
});
