import {
  artifacts,
  create2Deployer,
  devnetAccounts,
  devnetClient,
  publishedArtifacts,
  safeInitializer,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { Level } from "@presend/shared/api/report";
import { type ChainName, multicall3Address } from "@presend/shared/chains/chains";
import {
  type Abi,
  type Address,
  getContractAddress,
  type Hex,
  pad,
  parseEther,
  parseEventLogs,
  toHex,
  zeroHash,
} from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// Safes that exist on Ethereum and not on Base, made the ways people (and attackers) really make
// them: the published Safe 1.4.1 and 1.3.0 L2 singletons and factories deployed through Nick's
// CREATE2 factory on both chains (as Safe deploys them), Safes created on Ethereum through them
// with real transactions, and a deep check on Base. Which way a Safe was made decides whether its
// owners can ever re-make it at the same address on Base; its state does not say, so the verdict
// must not say more than "may".
//
// Its own world: the rows send transactions the shared world's readers do not expect.

type Row = {
  name: string;
  address: () => Address;
  level: Level;
  /** The deciding reason of the deep check on Base. */
  code: string;
  /** Text the deciding reason's message must contain. */
  says: string;
  /** Text no reason's message may contain. */
  never?: string;
};

describe("Safes on Ethereum and not on Base, on a deep check on Base (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  const owners = [generatePrivateKey(), generatePrivateKey()].map(
    (key) => privateKeyToAccount(key).address,
  );
  const attacker = privateKeyToAccount(generatePrivateKey());
  const safes: Record<string, Address> = {};

  const client = (name: ChainName) => devnetClient(name, world.chains[name].rpcUrl);

  /** Deploys creation code through Nick's factory, as Safe deploys its contracts everywhere. */
  async function create2(name: ChainName, bytecode: Hex, salt: Hex = zeroHash): Promise<Address> {
    const chain = client(name);
    await chain.confirm(
      chain.sendTransaction({
        account: faucet,
        to: create2Deployer,
        data: `${salt}${bytecode.slice(2)}`,
        gas: 8_000_000n,
      }),
    );
    return getContractAddress({ opcode: "CREATE2", from: create2Deployer, salt, bytecode });
  }

  /** Calls a Safe proxy factory and answers the proxy its ProxyCreation event names. */
  async function createSafe(
    name: ChainName,
    account: PrivateKeyAccount,
    factory: { address: Address; abi: Abi },
    functionName: string,
    args: readonly unknown[],
  ): Promise<Address> {
    const chain = client(name);
    const receipt = await chain.confirm(
      chain.writeContract({
        account,
        address: factory.address,
        abi: factory.abi,
        functionName,
        args,
        gas: 3_000_000n,
      }),
    );
    const [created] = parseEventLogs({
      abi: factory.abi,
      logs: receipt.logs,
      eventName: "ProxyCreation",
    });
    const proxy = (created?.args as { proxy?: Address } | undefined)?.proxy;
    if (!proxy) throw new TypeError(`no ProxyCreation from ${functionName} on ${name}`);
    return proxy;
  }

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    const rpcUrls = worldRpcUrls(world);
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });

    const { Safe, SafeProxyFactory, GnosisSafeL2, GnosisSafeProxyFactory } = publishedArtifacts;
    const contracts = { singleton141: "", factory141: "", singleton130: "", factory130: "" };
    for (const name of ["ethereum", "base"] as const) {
      contracts.singleton141 = await create2(name, Safe.bytecode);
      contracts.factory141 = await create2(name, SafeProxyFactory.bytecode);
      contracts.singleton130 = await create2(name, GnosisSafeL2.bytecode);
      contracts.factory130 = await create2(name, GnosisSafeProxyFactory.bytecode);
    }
    const factory141 = { address: contracts.factory141 as Address, abi: SafeProxyFactory.abi };
    const factory130 = {
      address: contracts.factory130 as Address,
      abi: GnosisSafeProxyFactory.abi,
    };
    // A Safe 1.4.1 factory of another salt, deployed on Ethereum alone.
    const ethereumOnlyFactory = {
      address: await create2("ethereum", SafeProxyFactory.bytecode, pad(toHex(1), { size: 32 })),
      abi: SafeProxyFactory.abi,
    };
    const initializer = safeInitializer(owners, 1n);
    const singleton141 = contracts.singleton141 as Address;
    const singleton130 = contracts.singleton130 as Address;

    safes.sameEverywhere = await createSafe(
      "ethereum",
      faucet,
      factory141,
      "createProxyWithNonce",
      [singleton141, initializer, 0n],
    );
    safes.chainSpecific = await createSafe(
      "ethereum",
      faucet,
      factory141,
      "createChainSpecificProxyWithNonce",
      [singleton141, initializer, 0n],
    );
    safes.factoryMissing = await createSafe(
      "ethereum",
      faucet,
      ethereumOnlyFactory,
      "createProxyWithNonce",
      [singleton141, initializer, 0n],
    );
    // By CREATE the factory's nonce alone decides the address: the first two are taken on Base
    // by an attacker reaching the same nonces there, the third is left for anyone.
    for (const name of ["takenWithOtherOwners", "takenWithOtherCode", "byCreate"]) {
      safes[name] = await createSafe("ethereum", faucet, factory130, "createProxy", [
        singleton130,
        initializer,
      ]);
    }
    for (const name of ["ethereum", "base"] as const) {
      const chain = client(name);
      await chain.confirm(
        chain.sendTransaction({ account: faucet, to: attacker.address, value: parseEther("1") }),
      );
    }
    const takenWithOtherOwners = await createSafe("base", attacker, factory130, "createProxy", [
      singleton130,
      safeInitializer([attacker.address], 1n),
    ]);
    // A proxy of the Safe factory that runs Multicall3 instead of any Safe code.
    const takenWithOtherCode = await createSafe("base", attacker, factory130, "createProxy", [
      multicall3Address,
      "0x",
    ]);
    expect([takenWithOtherOwners, takenWithOtherCode]).toEqual([
      safes.takenWithOtherOwners,
      safes.takenWithOtherCode,
    ]);
    // Not a Safe: a contract answering as one, naming the Safe 1.4.1 singleton both chains have.
    const lookalike = client("ethereum");
    const deployed = await lookalike.confirm(
      lookalike.deployContract({
        account: attacker,
        abi: artifacts.DemoSafeLookalike.abi,
        bytecode: artifacts.DemoSafeLookalike.bytecode,
        args: [singleton141, owners],
      }),
    );
    if (!deployed.contractAddress) throw new TypeError("DemoSafeLookalike did not deploy");
    safes.lookalike = deployed.contractAddress;
    for (const address of Object.values(safes)) {
      const chain = client("ethereum");
      await chain.confirm(
        chain.sendTransaction({ account: faucet, to: address, value: parseEther("1") }),
      );
    }
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
  });

  const mayRemake =
    "its owners may be able to create it at this address on Base, but only if it was made in a way that gives the same address on every network, which presend cannot see from the chain";
  const rows: Row[] = [
    {
      name: "Safe 1.4.1 from createProxyWithNonce (singleton and factory on both chains)",
      address: () => safes.sameEverywhere as Address,
      level: "warn",
      code: "safe_elsewhere",
      says: mayRemake,
    },
    {
      // The chain id is in its salt: on Base the same call gives another address, for good.
      name: "Safe 1.4.1 from createChainSpecificProxyWithNonce: never at this address on Base",
      address: () => safes.chainSpecific as Address,
      level: "warn",
      code: "safe_elsewhere",
      says: mayRemake,
      never: "can deploy",
    },
    {
      name: "Safe 1.4.1 from a factory deployed on Ethereum only (its singleton on both)",
      address: () => safes.factoryMissing as Address,
      level: "warn",
      code: "safe_elsewhere",
      says: mayRemake,
      never: "can deploy",
    },
    {
      // CREATE from the factory's nonce: whoever reaches that nonce on Base first gets it.
      name: "Safe 1.3.0 L2 from createProxy (CREATE): its address on Base goes to whoever comes first",
      address: () => safes.byCreate as Address,
      level: "warn",
      code: "safe_elsewhere",
      says: mayRemake,
      never: "can deploy",
    },
    {
      // The Wintermute loss: the recipient's Safe address on Base, made there by someone else.
      name: "Safe 1.3.0 L2 by createProxy, its address taken on Base by an attacker's own Safe",
      address: () => safes.takenWithOtherOwners as Address,
      level: "danger",
      code: "safe_taken_here",
      says: "on Base owners who are not owners on Ethereum can move funds on their own",
    },
    {
      name: "Safe 1.3.0 L2 by createProxy, its address taken on Base by a proxy of other code",
      address: () => safes.takenWithOtherCode as Address,
      level: "danger",
      code: "safe_taken_here",
      says: "on Base it is a contract: not the same wallet",
    },
    {
      name: "a contract answering as a Safe (masterCopy names a singleton Base has) is no Safe",
      address: () => safes.lookalike as Address,
      level: "danger",
      code: "contract_elsewhere",
      says: "This address is a contract on Ethereum but has no code on Base",
    },
  ];

  it.each(rows)("$name: deep on Base is $level ($code)", async (row) => {
    const result = await engine.deep({ address: row.address(), chain: "base" });
    if (result.type !== "report") throw new TypeError(`Base unreadable: ${result.error}`);
    const { verdict, others } = result.report;
    expect(others.find((facts) => facts.name === "ethereum")?.kind).toBe("safe");
    expect(verdict.level).toBe(row.level);
    expect(verdict.reasons[0]?.code).toBe(row.code);
    expect(verdict.reasons[0]?.message).toContain(row.says);
    if (row.never) {
      for (const reason of verdict.reasons) expect(reason.message).not.toContain(row.never);
    }
  });

  it("checks the Safe lookalike on its own chain as no recognised Safe, never an active one", async () => {
    const result = await engine.check({ address: safes.lookalike as Address, chain: "ethereum" });
    if (result.type !== "report") throw new TypeError(`Ethereum unreadable: ${result.error}`);
    const { verdict, chain: facts } = result.report;
    expect(facts.safe?.proxyVersion).toBeNull();
    expect(verdict.level).toBe("caution");
    expect(verdict.reasons[0]?.code).toBe("safe_unrecognised");
  });

  it("knows the published Safe proxies by their code", async () => {
    const result = await engine.check({ address: safes.byCreate as Address, chain: "ethereum" });
    if (result.type !== "report") throw new TypeError(`Ethereum unreadable: ${result.error}`);
    expect(result.report.chain.safe?.proxyVersion).toBe("1.3.0");
    const portable = await engine.check({
      address: safes.sameEverywhere as Address,
      chain: "ethereum",
    });
    if (portable.type !== "report") throw new TypeError(`Ethereum unreadable: ${portable.error}`);
    expect(portable.report.chain.safe?.proxyVersion).toBe("1.4.1");
  });
});
