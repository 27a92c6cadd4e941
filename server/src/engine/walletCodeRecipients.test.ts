import {
  create2Deployer,
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  publishedArtifacts,
  startWorld,
  type World,
} from "@presend/devnet";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import {
  type Address,
  concat,
  encodeFunctionData,
  erc20Abi,
  getContractAddress,
  parseEther,
  size,
  zeroHash,
} from "viem";
import { entryPoint06Address } from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// Contracts that answer like a smart account but are nobody's wallet, deployed from their
// published npm artifacts with real transactions:
// - Simple7702Account at the address EIP-7702 accounts delegate to (Nick's factory, salt 0, as its
//   authors deployed it): wallet software's own code. Explorers show it on every delegated
//   account's page, so it gets copied. It keeps a native send, yet only the account itself or the
//   EntryPoint may move funds, and a contract has no key: presend called it a smart wallet never
//   used and said "send a small test amount first", which would be kept, and lost.
// - eth-infinitism's VerifyingPaymaster v0.6: it names the EntryPoint like an account and refuses
//   ETH, and presend told the sender "send tokens only", though a token sent to it can never leave.
//
// Its own world: the deployments are real transactions, and the shared world belongs to files
// that only read it.

describe("wallet code and a paymaster as recipients (real anvil chains, published artifacts)", () => {
  let world: World;
  let engine: Engine;
  let paymaster: Address;
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
    // Both through Nick's factory with salt 0, as their authors deployed them.
    for (const bytecode of [
      publishedArtifacts.Simple7702Account.bytecode,
      publishedArtifacts.EntryPointV06.bytecode,
    ]) {
      await client.confirm(
        client.sendTransaction({
          account: deployer,
          to: create2Deployer,
          data: concat([zeroHash, bytecode]),
          gas: 8_000_000n,
        }),
      );
    }
    const deployment = await client.confirm(
      client.deployContract({
        account: deployer,
        abi: publishedArtifacts.VerifyingPaymasterV06.abi,
        bytecode: publishedArtifacts.VerifyingPaymasterV06.bytecode,
        args: [entryPoint06Address, deployer.address],
      }),
    );
    if (!deployment.contractAddress) throw new Error("the paymaster was not deployed");
    paymaster = deployment.contractAddress;
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("deploys them for real: the canonical addresses, and what each does with funds", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    expect(simple7702).toBe("0xe6Cae83BdE06E4c305530e199D7217f42808555B");
    expect(await client.getCode({ address: simple7702 })).toBe(
      publishedArtifacts.Simple7702Account.deployedBytecode,
    );
    // The paymaster serves the EntryPoint v0.6 deployed at its canonical address.
    expect(size((await client.getCode({ address: entryPoint06Address })) ?? "0x")).toBeGreaterThan(
      0,
    );
    const served = await client.readContract({
      address: paymaster,
      abi: publishedArtifacts.VerifyingPaymasterV06.abi,
      functionName: "entryPoint",
    });
    expect(served).toBe(entryPoint06Address);
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
    // The paymaster refuses ETH, yet takes a token transfer, which nothing in it can move.
    await expect(
      client.confirm(
        client.sendTransaction({ account: faucet, to: paymaster, value: 1n, gas: 100_000n }),
      ),
    ).rejects.toThrow(/reverted/);
    await mintStablecoin(client, {
      token: chains.base.usdc.address,
      minter: faucet,
      to: paymaster,
      amount: 1_000_000n,
    });
    const held = await client.readContract({
      address: chains.base.usdc.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [paymaster],
    });
    expect(held).toBe(1_000_000n);
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

  it("does not tell the sender to pay the paymaster in tokens", async () => {
    const input = { address: paymaster, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["warn", "warn"]);
    const { verdict, chain } = check.report;
    expect(chain).toMatchObject({
      kind: "smart-account",
      entryPoint: entryPoint06Address,
      outgoingTxs: 0,
      receiveSimulation: { outcome: "rejected" },
    });
    const [deciding] = verdict.reasons;
    expect(deciding?.code).toBe("rejects_native");
    expect(deciding?.message).not.toContain("send tokens only");
    expect(deciding?.message).toContain("an ERC-4337 paymaster answers the same way");
    expect(verdict.next).toBe(
      "Do not send here, tokens included, until the recipient shows this address can move funds on Base.",
    );
  });
});
