import {
  create2Deployer,
  devnetAccounts,
  devnetClient,
  publishedArtifacts,
  startWorld,
  type World,
} from "@presend/devnet";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { concat, encodeFunctionData, getContractAddress, parseEther, zeroHash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// Simple7702Account, deployed from its published npm artifact with a real transaction at the
// address EIP-7702 accounts delegate to (Nick's factory, salt 0, as its authors deployed it):
// wallet software's own code. Explorers show it on every delegated account's page, so it gets
// copied. It keeps a native send, yet only the account itself or the EntryPoint may move funds,
// and a contract has no key: presend called it a smart wallet never used and said "send a small
// test amount first", which would be kept, and lost.
//
// Its own world: the deployments are real transactions, and the shared world belongs to files
// that only read it.

describe("wallet code as a recipient (real anvil chains, published artifacts)", () => {
  let world: World;
  let engine: Engine;
  const simple7702 = getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: zeroHash,
    bytecode: publishedArtifacts.Simple7702Account.bytecode,
  });
  const deployer = privateKeyToAccount(generatePrivateKey());
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    const rpcUrls = Object.fromEntries(
      chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
    ) as Record<ChainName, string[]>;
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    await client.confirm(
      client.sendTransaction({ account: faucet, to: deployer.address, value: parseEther("1") }),
    );
    // Through Nick's factory with salt 0, as its authors deployed it.
    await client.confirm(
      client.sendTransaction({
        account: deployer,
        to: create2Deployer,
        data: concat([zeroHash, publishedArtifacts.Simple7702Account.bytecode]),
        gas: 8_000_000n,
      }),
    );
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("deploys it for real: the canonical address, and what it does with funds", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    expect(simple7702).toBe("0xe6Cae83BdE06E4c305530e199D7217f42808555B");
    expect(await client.getCode({ address: simple7702 })).toBe(
      publishedArtifacts.Simple7702Account.deployedBytecode,
    );
    // Simple7702Account keeps a test amount sent to it...
    await client.confirm(
      client.sendTransaction({ account: faucet, to: simple7702, value: parseEther("0.01") }),
    );
    expect(await client.getBalance({ address: simple7702 })).toBe(parseEther("0.01"));
    // ...and moves it for nobody: only the account itself or the EntryPoint may call execute.
    const withdraw = encodeFunctionData({
      abi: publishedArtifacts.Simple7702Account.abi,
      functionName: "execute",
      args: [faucet.address, parseEther("0.01"), "0x"],
    });
    await expect(
      client.call({ account: faucet, to: simple7702, data: withdraw }),
    ).rejects.toThrow();
  });

  it("calls Simple7702Account's own contract wallet code, not a wallet: danger", async () => {
    const input = { address: simple7702, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
    const { verdict, chain } = check.report;
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(["wallet_code"]);
    expect(verdict.headline).toBe(
      "Simple7702Account (ERC-4337 reference) wallet code on Base, not a wallet",
    );
    expect(verdict.next).toContain("Do not send");
    expect(chain).toMatchObject({ kind: "contract", isContract: true, outgoingTxs: null });
    expect(chain.kindLabel).toContain("wallet code (EIP-7702 delegate), not a wallet");
  });
});
