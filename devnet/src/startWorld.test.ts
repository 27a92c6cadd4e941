import {
  type ChainName,
  chainNames,
  chains,
  multicall3Address,
} from "@presend/shared/chains/chains";
import {
  getProxyFactoryDeployment,
  getSafeL2SingletonDeployment,
} from "@safe-global/safe-deployments";
import {
  type Address,
  concat,
  erc20Abi,
  getAddress,
  keccak256,
  parseAbi,
  parseEther,
  parseUnits,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifacts } from "./contracts/artifacts";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { burnAddress, demoAccounts, demoContracts } from "./demoWorld";
import { devnetAccounts } from "./devnetAccounts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { devnetStablecoins } from "./devnetStablecoins";
import { livingProcessesInGroup } from "./livingProcessesInGroup";
import { startWorld, type World } from "./startWorld";

const usdc = (amount: string) => parseUnits(amount, 6);
const metadataAbi = parseAbi([
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function version() view returns (string)",
]);

describe("startWorld", () => {
  let world: World;
  let clients: Record<ChainName, DevnetClient>;

  beforeAll(async () => {
    // Its own world: starting and seeding one is what this file tests.
    world = await startWorld();
    clients = Object.fromEntries(
      chainNames.map((name) => [name, devnetClient(name, world.chains[name].rpcUrl)]),
    ) as Record<ChainName, DevnetClient>;
  });
  afterAll(() => world?.stop());

  async function stateOf(name: ChainName, address: Address) {
    const client = clients[name];
    const { usdc: nativeUsdc, usdt, usdcBridged } = chains[name];
    const tokenBalance = (token: Address) =>
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      });
    return {
      code: (await client.getCode({ address })) ?? "0x",
      nonce: await client.getTransactionCount({ address }),
      native: await client.getBalance({ address }),
      usdc: await tokenBalance(nativeUsdc.address),
      usdt: await tokenBalance(usdt.address),
      usdcBridged: usdcBridged ? await tokenBalance(usdcBridged.address) : 0n,
    };
  }
  const untouched = { code: "0x", nonce: 0, native: 0n, usdc: 0n, usdt: 0n, usdcBridged: 0n };

  it("starts five chains with the mainnet chain ids on distinct loopback ports", async () => {
    expect(Object.keys(world.chains)).toEqual([...chainNames]);
    for (const name of chainNames) {
      expect(world.chains[name].rpcUrl).toBe(`http://127.0.0.1:${world.chains[name].port}`);
      expect(await clients[name].getChainId()).toBe(chains[name].id);
    }
    expect(new Set(chainNames.map((name) => world.chains[name].port)).size).toBe(5);
  });

  it("installs Multicall3 and the stablecoins at their mainnet addresses on every chain", async () => {
    for (const name of chainNames) {
      const client = clients[name];
      expect(await client.getCode({ address: multicall3Address })).toBe(
        artifacts.Multicall3.deployedBytecode,
      );
      for (const token of devnetStablecoins(name)) {
        // Read through viem's multicall, so Multicall3 itself is exercised.
        const results = await client.multicall({
          allowFailure: false,
          contracts: (["name", "symbol", "decimals", "version"] as const).map((functionName) => ({
            address: token.address,
            abi: metadataAbi,
            functionName,
          })),
        });
        expect(results).toEqual([token.name, token.symbol, token.decimals, token.version]);
      }
    }
    expect(devnetStablecoins("base").map((token) => token.symbol)).toEqual([
      "USDC",
      "USDT",
      "USDbC",
    ]);
    expect(devnetStablecoins("ethereum")).toHaveLength(2);
  });

  it("seeds an active EOA on base with real outgoing transactions and balances", async () => {
    const state = await stateOf("base", devnetAccounts.activeOnBase.address);
    expect(state.code).toBe("0x");
    expect(state.nonce).toBe(3);
    expect(state.native).toBeGreaterThan(parseEther("4.7"));
    expect(state.usdc).toBe(usdc("2460"));
    expect(state.usdt).toBe(usdc("100"));
  });

  it("leaves the fresh address untouched on all five chains", async () => {
    for (const name of chainNames) {
      expect(await stateOf(name, devnetAccounts.fresh.address)).toEqual(untouched);
    }
  });

  it("deploys a generic contract on base that is neither token nor wallet", async () => {
    const state = await stateOf("base", demoContracts.guestbookOnBase);
    expect(state.code).toBe(artifacts.DemoGuestbook.deployedBytecode);
    expect(
      await clients.base.readContract({
        address: demoContracts.guestbookOnBase,
        abi: artifacts.DemoGuestbook.abi,
        functionName: "entryCount",
      }),
    ).toBe(1n);
    expect(await stateOf("ethereum", demoContracts.guestbookOnBase)).toEqual(untouched);
  });

  it("deploys a Safe 1.4.1 proxy from the published factory on ethereum only", async () => {
    const address = demoAccounts.safeOnEthereum;
    const read = <const name extends "getThreshold" | "getOwners" | "nonce">(functionName: name) =>
      clients.ethereum.readContract({ address, abi: publishedArtifacts.Safe.abi, functionName });
    expect((await stateOf("ethereum", address)).code).toBe(
      publishedArtifacts.SafeProxy.deployedBytecode,
    );
    expect(await read("getThreshold")).toBe(2n);
    expect(await read("getOwners")).toEqual([
      devnetAccounts.multisigOwnerA.address,
      devnetAccounts.multisigOwnerB.address,
      devnetAccounts.multisigOwnerC.address,
    ]);
    expect(await read("nonce")).toBe(0n);
    expect((await stateOf("ethereum", address)).usdc).toBe(usdc("10000"));
    for (const name of chainNames.filter((chain) => chain !== "ethereum")) {
      expect(await stateOf(name, address)).toEqual(untouched);
    }
  });

  it("deploys the Safe 1.3.0 L2 singleton and factory where Safe lists them, with its code", async () => {
    // safe-deployments' canonical addresses and code hashes: the local contracts are the real ones.
    const singleton = getSafeL2SingletonDeployment({ version: "1.3.0" })?.deployments.canonical;
    const factory = getProxyFactoryDeployment({ version: "1.3.0" })?.deployments.canonical;
    expect(demoContracts.canonicalSafeL2Singleton).toBe(singleton?.address);
    expect(demoContracts.canonicalSafeFactory).toBe(factory?.address);
    for (const name of ["base", "ethereum"] as const) {
      for (const deployment of [singleton, factory]) {
        const code = await clients[name].getCode({ address: deployment?.address as Address });
        expect(keccak256(code ?? "0x")).toBe(deployment?.codeHash);
      }
    }
    // A Safe made from them on ethereum, which names that singleton as the code it runs.
    const address = demoAccounts.canonicalSafeOnEthereum;
    expect(
      await clients.ethereum.readContract({
        address,
        abi: parseAbi(["function masterCopy() view returns (address)"]),
        functionName: "masterCopy",
      }),
    ).toBe(singleton?.address);
    expect(await stateOf("base", address)).toEqual(untouched);
  });

  it("executes one transaction from the used Safe on base and none from the unused one", async () => {
    const nonceOf = (address: Address) =>
      clients.base.readContract({
        address,
        abi: publishedArtifacts.Safe.abi,
        functionName: "nonce",
      });
    expect(await nonceOf(demoAccounts.usedSafeOnBase)).toBe(1n);
    expect(await nonceOf(demoAccounts.unusedSafeOnBase)).toBe(0n);
    // Every contract starts at account nonce 1 (EIP-161), used or not.
    expect((await stateOf("base", demoAccounts.unusedSafeOnBase)).nonce).toBe(1);
  });

  it("runs a UserOperation through the real EntryPoint v0.8 at its canonical address", async () => {
    expect(demoContracts.entryPointV08).toBe("0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108");
    const account = demoAccounts.smartAccountOnBase;
    const read = (functionName: "getNonce", args: [Address, bigint]) =>
      clients.base.readContract({
        address: demoContracts.entryPointV08,
        abi: publishedArtifacts.EntryPoint.abi,
        functionName,
        args,
      });
    expect(await read("getNonce", [account, 0n])).toBe(1n);
    expect(
      await clients.base.readContract({
        address: account,
        abi: publishedArtifacts.SimpleAccount.abi,
        functionName: "owner",
      }),
    ).toBe(devnetAccounts.smartAccountOwner.address);
  });

  it("makes one EOA active on arbitrum and nowhere else", async () => {
    const address = devnetAccounts.activeOnArbitrumOnly.address;
    const state = await stateOf("arbitrum", address);
    expect(state).toMatchObject({ code: "0x", nonce: 2, usdc: usdc("475") });
    expect(state.native).toBeGreaterThan(parseEther("1.8"));
    for (const name of chainNames.filter((chain) => chain !== "arbitrum")) {
      expect(await stateOf(name, address)).toEqual(untouched);
    }
  });

  it("delegates EOAs on base with real EIP-7702 transactions: a wallet delegate and a sweeper", async () => {
    const wallet = await stateOf("base", devnetAccounts.delegatedOnBase.address);
    expect(wallet.code).toBe(concat(["0xef0100", demoContracts.simple7702OnBase]).toLowerCase());
    expect(wallet.nonce).toBe(2);
    expect((await stateOf("base", demoContracts.simple7702OnBase)).code).toBe(
      publishedArtifacts.Simple7702Account.deployedBytecode,
    );
    const swept = await stateOf("base", devnetAccounts.sweptOnBase.address);
    expect(swept.code).toBe(concat(["0xef0100", demoContracts.sweeperOnBase]).toLowerCase());
    expect(swept.nonce).toBe(3);
  });

  it("has the USDC contract itself on base", async () => {
    const state = await stateOf("base", chains.base.usdc.address);
    expect(state.code).toBe(artifacts.PresendStablecoin.deployedBytecode);
  });

  it("gives an address only bridged USDC on arbitrum", async () => {
    expect(await stateOf("arbitrum", devnetAccounts.bridgedUsdcOnlyOnArbitrum.address)).toEqual({
      ...untouched,
      usdcBridged: usdc("250"),
    });
  });

  it("keeps the zero and burn addresses code-free, the burn address holding ETH", async () => {
    expect((await stateOf("base", "0x0000000000000000000000000000000000000000")).code).toBe("0x");
    expect(await stateOf("base", burnAddress)).toEqual({ ...untouched, native: parseEther("1") });
  });

  it("funds a receive-only address on base that never sent a transaction", async () => {
    expect(await stateOf("base", devnetAccounts.receiveOnlyOnBase.address)).toEqual({
      ...untouched,
      native: parseEther("0.5"),
      usdc: usdc("150"),
    });
  });

  it("funds the x402 payer and facilitator on base and leaves payTo empty", async () => {
    expect(await stateOf("base", world.accounts.payer.address)).toEqual({
      ...untouched,
      native: parseEther("1"),
      usdc: usdc("1000"),
    });
    expect(await stateOf("base", world.accounts.facilitator.address)).toEqual({
      ...untouched,
      native: parseEther("10"),
    });
    expect(await stateOf("base", world.accounts.payTo.address)).toEqual(untouched);
  });

  it("lists every demo address on the chain it documents", async () => {
    const labels = world.demo.map((demo) => demo.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const demo of world.demo) expect(demo.address).toBe(getAddress(demo.address));
  });

  it("stop() leaves no anvil process behind", async () => {
    const { processGroupIds } = world;
    expect(processGroupIds).toHaveLength(5);
    for (const group of processGroupIds)
      expect(livingProcessesInGroup(group).length).toBeGreaterThan(0);
    await world.stop();
    for (const group of processGroupIds) expect(livingProcessesInGroup(group)).toEqual([]);
    await expect(fetch(world.chains.base.rpcUrl, { method: "POST" })).rejects.toThrow();
  });
});
