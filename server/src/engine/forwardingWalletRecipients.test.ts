import {
  artifacts,
  devnetAccounts,
  devnetClient,
  recipientKinds,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { type Address, pad, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// A drainer that gets a smart wallet's owner to sign an upgrade points the account's ERC-1967
// implementation slot at its own code: from then on every deposit goes straight to the thief,
// while the account's UserOperations still show it as a wallet in use. presend's receive
// simulation saw the deposit passed on, and the verdict still said "Active smart wallet: ok".
// Here the used Coinbase-Smart-Wallet-like account of the world (ERC-1967 proxy, UUPS, used by
// a UserOperation) gets DemoDepositForwarder (written for the local world), deployed by a real transaction
// with the thief as its collector, in its implementation slot, as the upgrade leaves it.
//
// Its own world: the account's slot is rewritten, and the shared world belongs to files that
// only read it.

const erc1967ImplementationSlot =
  "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

describe("a used smart wallet whose code now passes every deposit on (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  const thief = privateKeyToAccount(generatePrivateKey()).address;
  const wallet: Address = recipientKinds.usedCoinbaseWalletOnBase;

  beforeAll(async () => {
    world = await startWorld();
    engine = createEngine({ reader: createChainReader({ rpcUrls: worldRpcUrls(world) }) });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    const deployment = await client.confirm(
      client.deployContract({
        account: faucet,
        abi: artifacts.DemoDepositForwarder.abi,
        bytecode: artifacts.DemoDepositForwarder.bytecode,
        args: [thief],
      }),
    );
    if (!deployment.contractAddress) throw new Error("DemoDepositForwarder was not deployed");
    await client.setStorageAt({
      address: wallet,
      index: erc1967ImplementationSlot,
      value: pad(deployment.contractAddress),
    });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("is real: ETH sent to the wallet ends with the thief", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const sender = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    const before = await client.getBalance({ address: wallet });
    await client.confirm(
      client.sendTransaction({ account: sender, to: wallet, value: parseEther("0.01") }),
    );
    expect(await client.getBalance({ address: wallet })).toBe(before);
    expect(await client.getBalance({ address: thief })).toBe(parseEther("0.01"));
  });

  it("is danger on check and deep, naming where deposits go, never an active wallet's ok", async () => {
    for (const result of [
      await engine.check({ address: wallet, chain: "base" }),
      await engine.deep({ address: wallet, chain: "base" }),
    ]) {
      if (result.type !== "report") throw new Error("base unreadable");
      const { chain, verdict } = result.report;
      // Still a smart account in use: its UserOperation is counted by the EntryPoint.
      expect(chain.kind).toBe("smart-account");
      expect(chain.receiveSimulation).toMatchObject({ outcome: "forwarded", forwardedTo: thief });
      expect(verdict.level).toBe("danger");
      expect(verdict.reasons[0]).toMatchObject({ code: "wallet_forwards_deposits" });
      expect(verdict.reasons[0]?.message).toContain(`in full to another address (${thief})`);
      expect(verdict.headline).toBe("Anything sent here is passed on at once on Base");
      expect(verdict.next).toMatch(/^Do not send/);
    }
  });
});
