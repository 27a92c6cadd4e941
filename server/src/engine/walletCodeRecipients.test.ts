import {
  create2Deployer,
  createAndUseSimpleAccount,
  type DevnetClient,
  devnetAccounts,
  devnetClient,
  entryPointV07Salt,
  entryPointV08Salt,
  mintStablecoin,
  publishedArtifacts,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import {
  type Address,
  concat,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  getContractAddress,
  parseEther,
  size,
  zeroAddress,
  zeroHash,
} from "viem";
import {
  entryPoint06Address,
  entryPoint07Address,
  entryPoint08Address,
} from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eip1967ImplementationSlot } from "../chain/buildFactsBatch";
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
// - The SimpleAccount implementation a real SimpleAccountFactory deploys (v0.8 and v0.7), and a
//   copy of Simple7702Account at an address of its own: explorers show an account proxy's
//   implementation on its page, so it gets copied too. Neither is in presend's registry, and both
//   were "smart wallet, deployed, never used: send a small test amount first"; the test amount is
//   lost (the implementation's constructor disables its initializer: nobody owns it). A UUPS
//   implementation tells itself apart by answering proxiableUUID() as itself; beside it, the
//   accounts that factory makes (used: ok; never used: caution) and an EIP-7702 account running
//   the implementation keep their verdicts.
//
// Its own world: the deployments are real transactions, and the shared world belongs to files
// that only read it.

describe("wallet code and a paymaster as recipients (real anvil chains, published artifacts)", () => {
  let world: World;
  let engine: Engine;
  let paymaster: Address;
  /** The SimpleAccount implementations the factories deployed in their constructors. */
  let implementationV08: Address;
  let implementationV07: Address;
  /** SimpleAccount proxies from those factories: one used through a UserOperation, one never. */
  let usedAccount: Address;
  let unusedAccount: Address;
  /** Simple7702Account deployed again, by a plain CREATE: the same code at another address. */
  let simple7702Copy: Address;
  const delegated = privateKeyToAccount(generatePrivateKey());
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
    const rpcUrls = worldRpcUrls(world);
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
    await deploySimpleAccounts(client);
  });

  /**
   * The EntryPoints v0.8 and v0.7 at their canonical addresses (Nick's factory, their published
   * salts), a SimpleAccountFactory on each (its constructor deploys the implementation), an
   * account used through a UserOperation (v0.8, created by it), an account created and funded
   * but never used (v0.7, whose createAccount anyone may call), an EOA with history delegated to
   * the v0.8 implementation, and Simple7702Account again by a plain CREATE.
   */
  async function deploySimpleAccounts(client: DevnetClient) {
    for (const [salt, bytecode] of [
      [entryPointV08Salt, publishedArtifacts.EntryPoint.bytecode],
      [entryPointV07Salt, publishedArtifacts.EntryPointV07.bytecode],
    ] as const) {
      await client.confirm(
        client.sendTransaction({
          account: deployer,
          to: create2Deployer,
          data: concat([salt, bytecode]),
          gas: 8_000_000n,
        }),
      );
    }
    const deployFactory = async (
      artifact: typeof publishedArtifacts.SimpleAccountFactory,
      entryPoint: Address,
    ) => {
      const receipt = await client.confirm(
        client.deployContract({
          account: deployer,
          abi: artifact.abi,
          bytecode: artifact.bytecode,
          args: [entryPoint],
        }),
      );
      const factory = getAddress(receipt.contractAddress as Address);
      const implementation = (await client.readContract({
        address: factory,
        abi: artifact.abi,
        functionName: "accountImplementation",
      })) as Address;
      return { factory, implementation };
    };
    const v08 = await deployFactory(publishedArtifacts.SimpleAccountFactory, entryPoint08Address);
    const v07 = await deployFactory(
      publishedArtifacts.SimpleAccountFactoryV07,
      entryPoint07Address,
    );
    implementationV08 = v08.implementation;
    implementationV07 = v07.implementation;
    usedAccount = await createAndUseSimpleAccount(client, {
      factory: v08.factory,
      owner: privateKeyToAccount(generatePrivateKey()),
      bundler: privateKeyToAccount(generatePrivateKey()),
    });

    // Never used: created through the v0.7 factory by someone else, and funded.
    const unusedOwner = privateKeyToAccount(generatePrivateKey());
    const createAccount = {
      address: v07.factory,
      abi: publishedArtifacts.SimpleAccountFactoryV07.abi,
      args: [unusedOwner.address, 0n],
    } as const;
    await client.confirm(
      client.writeContract({ ...createAccount, account: deployer, functionName: "createAccount" }),
    );
    unusedAccount = (await client.readContract({
      ...createAccount,
      functionName: "getAddress",
    })) as Address;
    await client.confirm(
      client.sendTransaction({ account: faucet, to: unusedAccount, value: parseEther("0.1") }),
    );

    // An EOA with history hands control to the v0.8 implementation, a UUPS-capable delegate.
    await client.confirm(
      client.sendTransaction({ account: faucet, to: delegated.address, value: parseEther("1") }),
    );
    await client.confirm(
      client.sendTransaction({ account: delegated, to: faucet.address, value: parseEther("0.1") }),
    );
    const authorization = await client.signAuthorization({
      account: delegated,
      contractAddress: implementationV08,
      executor: "self",
    });
    await client.confirm(
      client.sendTransaction({
        account: delegated,
        to: faucet.address,
        gas: 100_000n,
        authorizationList: [authorization],
      }),
    );

    const copy = await client.confirm(
      client.deployContract({
        account: deployer,
        abi: publishedArtifacts.Simple7702Account.abi,
        bytecode: publishedArtifacts.Simple7702Account.bytecode,
      }),
    );
    simple7702Copy = getAddress(copy.contractAddress as Address);
  }

  /**
   * Sends `contract` a test amount (0.01 ETH from the faucet) and expects it kept there, with no
   * way out: its execute(), called to send the amount back, reverts for the faucet.
   */
  async function expectKeepsTestAmount(
    client: DevnetClient,
    contract: Address,
    abi:
      | typeof publishedArtifacts.Simple7702Account.abi
      | typeof publishedArtifacts.SimpleAccount.abi,
  ) {
    await client.confirm(
      client.sendTransaction({ account: faucet, to: contract, value: parseEther("0.01") }),
    );
    expect(await client.getBalance({ address: contract })).toBe(parseEther("0.01"));
    const withdraw = encodeFunctionData({
      abi,
      functionName: "execute",
      args: [faucet.address, parseEther("0.01"), "0x"],
    });
    await expect(client.call({ account: faucet, to: contract, data: withdraw })).rejects.toThrow();
  }

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
    // Simple7702Account keeps a test amount sent to it, and moves it for nobody: only the account
    // itself or the EntryPoint may call execute.
    await expectKeepsTestAmount(client, simple7702, publishedArtifacts.Simple7702Account.abi);
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

  it("deploys the SimpleAccounts for real: the implementation answers as itself, and owns nothing", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const proxiableUUID = encodeFunctionData({
      abi: publishedArtifacts.SimpleAccount.abi,
      functionName: "proxiableUUID",
    });
    // Called as itself, a UUPS implementation answers the ERC-1967 slot...
    for (const implementation of [implementationV08, implementationV07]) {
      const answer = await client.call({ to: implementation, data: proxiableUUID });
      expect(answer.data).toBe(eip1967ImplementationSlot);
    }
    // ...through a proxy, or on an EIP-7702 account running it, the same call reverts.
    for (const account of [usedAccount, unusedAccount, delegated.address]) {
      await expect(client.call({ to: account, data: proxiableUUID })).rejects.toThrow();
    }
    const slot = await client.getStorageAt({
      address: usedAccount,
      slot: eip1967ImplementationSlot,
    });
    expect(getAddress(`0x${slot?.slice(-40)}`)).toBe(implementationV08);
    // The used account ran one UserOperation; the unused one none.
    const userOperations = async (account: Address, entryPoint: Address) =>
      client.readContract({
        address: entryPoint,
        abi: publishedArtifacts.EntryPoint.abi,
        functionName: "getNonce",
        args: [account, 0n],
      });
    expect(await userOperations(usedAccount, entryPoint08Address)).toBe(1n);
    expect(await userOperations(unusedAccount, entryPoint07Address)).toBe(0n);
    // The implementation has no owner, and nobody can make themselves one.
    const owner = await client.readContract({
      address: implementationV08,
      abi: publishedArtifacts.SimpleAccount.abi,
      functionName: "owner",
    });
    expect(owner).toBe(zeroAddress);
    const claim = encodeFunctionData({
      abi: publishedArtifacts.SimpleAccount.abi,
      functionName: "initialize",
      args: [faucet.address],
    });
    await expect(
      client.call({ account: faucet, to: implementationV08, data: claim }),
    ).rejects.toThrow();
    // A test amount sent to it is kept, and nobody can move it.
    await expectKeepsTestAmount(client, implementationV08, publishedArtifacts.SimpleAccount.abi);
    // The copy is Simple7702Account's published code, byte for byte, at an address of its own.
    expect(simple7702Copy).not.toBe(simple7702);
    expect(await client.getCode({ address: simple7702Copy })).toBe(
      publishedArtifacts.Simple7702Account.deployedBytecode,
    );
  });

  it("calls the SimpleAccount implementation a factory deployed wallet code, not a wallet: danger", async () => {
    for (const implementation of [implementationV08, implementationV07]) {
      const input = { address: implementation, chain: "base" as const };
      const check = await engine.check(input);
      const deep = await engine.deep(input);
      if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
      expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
      const { verdict, chain } = check.report;
      expect(verdict.reasons.map((reason) => reason.code)).toEqual(["wallet_code"]);
      expect(verdict.headline).toBe("Smart wallet code on Base, not a wallet");
      expect(verdict.next).toContain("Do not send");
      expect(chain).toMatchObject({
        kind: "contract",
        isContract: true,
        outgoingTxs: null,
        kindLabel: "smart-account wallet code (UUPS implementation), not a wallet",
        walletCode: { name: null, role: "implementation", matchedBy: "proxiableUUID" },
      });
    }
  });

  it("calls a copy of Simple7702Account at another address wallet code: danger", async () => {
    const input = { address: simple7702Copy, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
    expect(check.report.verdict.reasons.map((reason) => reason.code)).toEqual(["wallet_code"]);
    expect(check.report.verdict.headline).toBe(
      "Simple7702Account wallet code on Base, not a wallet",
    );
    expect(check.report.chain.walletCode).toEqual({
      name: "Simple7702Account",
      role: "eip7702-delegate",
      matchedBy: "codeHash",
    });
  });

  it("keeps the accounts that run the implementation as they were: used ok, unused caution, 7702 caution", async () => {
    const verdictOf = async (address: Address) => {
      const check = await engine.check({ address, chain: "base" });
      const deep = await engine.deep({ address, chain: "base" });
      if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
      const { chain, verdict } = check.report;
      expect(chain.walletCode).toBeUndefined();
      return {
        levels: [verdict.level, deep.report.verdict.level],
        deciding: verdict.reasons[0]?.code,
        chain,
      };
    };
    const used = await verdictOf(usedAccount);
    expect(used).toMatchObject({ levels: ["ok", "ok"], deciding: "active_wallet" });
    expect(used.chain).toMatchObject({
      kind: "smart-account",
      implementation: implementationV08,
      entryPoint: entryPoint08Address,
      outgoingTxs: 1,
    });
    const unused = await verdictOf(unusedAccount);
    expect(unused).toMatchObject({ levels: ["caution", "caution"], deciding: "unused_account" });
    expect(unused.chain).toMatchObject({
      kind: "smart-account",
      implementation: implementationV07,
      entryPoint: entryPoint07Address,
      outgoingTxs: 0,
    });
    const account = await verdictOf(delegated.address);
    expect(account).toMatchObject({
      levels: ["caution", "caution"],
      deciding: "eip7702_unknown_delegate",
    });
    expect(account.chain).toMatchObject({
      kind: "eip7702-delegated",
      delegate: implementationV08,
      // Its send, the delegation's transaction and the authorization (signed by the sender).
      outgoingTxs: 3,
    });
  });
});
