import {
  create2Deployer,
  type DevnetClient,
  demoContracts,
  devnetAccounts,
  devnetClient,
  publishedArtifacts,
  safeInitializer,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { type Address, concat, getAddress, parseEther, zeroAddress, zeroHash } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// A Safe proxy whose setup() never ran: made by the published SafeProxyFactory with an empty
// initializer (a script or a front end that forgot it, or a setup call that reverted in a later
// transaction). It has the code of a real Safe, keeps what is sent to it, and has no owners:
// setup() is open to the first caller, who makes themselves the owner and takes what it holds.
// presend called it an "unknown contract" and said "confirm with the recipient", who may well
// answer "yes, that is my Safe". Beside it, Safes set up by the same factories keep their verdicts.
//
// Its own world: the deployments are real transactions, and the shared world belongs to files
// that only read it.

describe("a Safe proxy never set up as recipient (real anvil chains, published Safe artifacts)", () => {
  let world: World;
  let engine: Engine;
  let client: DevnetClient;
  /** Safe 1.4.1 and 1.3.0 L2 proxies made with an empty initializer, funded. */
  let unsetSafe141: Address;
  let unsetSafe130: Address;
  /** A Safe 1.4.1 made by the same factory with owners, funded, never used. */
  let setUpSafe: Address;
  const deployer = privateKeyToAccount(generatePrivateKey());
  const owner = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    engine = createEngine({ reader: createChainReader({ rpcUrls: worldRpcUrls(world) }) });
    client = devnetClient("base", world.chains.base.rpcUrl);
    for (const account of [deployer, stranger]) {
      await client.confirm(
        client.sendTransaction({ account: faucet, to: account.address, value: parseEther("1") }),
      );
    }
    const deploy = async (artifact: { abi: readonly unknown[]; bytecode: `0x${string}` }) => {
      const receipt = await client.confirm(
        client.deployContract({
          account: deployer,
          abi: artifact.abi as never,
          bytecode: artifact.bytecode,
        }),
      );
      return getAddress(receipt.contractAddress as Address);
    };
    const singleton141 = await deploy(publishedArtifacts.Safe);
    const factory141 = await deploy(publishedArtifacts.SafeProxyFactory);
    // Safe 1.3.0 L2 through Nick's factory with salt 0, as Safe deployed it.
    for (const artifact of [
      publishedArtifacts.GnosisSafeL2,
      publishedArtifacts.GnosisSafeProxyFactory,
    ]) {
      await client.confirm(
        client.sendTransaction({
          account: deployer,
          to: create2Deployer,
          data: concat([zeroHash, artifact.bytecode]),
          gas: 8_000_000n,
        }),
      );
    }
    unsetSafe141 = await createProxy(factory141, singleton141, "0x", 1n);
    unsetSafe130 = await createProxy(
      demoContracts.canonicalSafeFactory,
      demoContracts.canonicalSafeL2Singleton,
      "0x",
      1n,
    );
    setUpSafe = await createProxy(
      factory141,
      singleton141,
      safeInitializer([owner.address], 1n),
      2n,
    );
    for (const safe of [unsetSafe141, unsetSafe130, setUpSafe]) {
      await client.confirm(
        client.sendTransaction({ account: faucet, to: safe, value: parseEther("0.5") }),
      );
    }
  }, 120_000);

  afterAll(async () => {
    await world?.stop();
  });

  /** createProxyWithNonce through the published factory; the proxy's address from its event. */
  async function createProxy(
    factory: Address,
    singleton: Address,
    initializer: `0x${string}`,
    saltNonce: bigint,
  ): Promise<Address> {
    const receipt = await client.confirm(
      client.writeContract({
        account: deployer,
        address: factory,
        abi: publishedArtifacts.SafeProxyFactory.abi,
        functionName: "createProxyWithNonce",
        args: [singleton, initializer, saltNonce],
      }),
    );
    // ProxyCreation(proxy indexed, singleton) in 1.4.1; ProxyCreation(proxy, singleton) in 1.3.0.
    const event = receipt.logs.find((log) => getAddress(log.address) === factory);
    const proxy = event?.topics[1] ? event.topics[1] : event?.data.slice(0, 66);
    if (!proxy) throw new Error("no ProxyCreation event");
    return getAddress(`0x${proxy.slice(-40)}`);
  }

  it("makes the proxies for real: a stranger sets up the unset one and takes what it holds", async () => {
    const threshold = (safe: Address) =>
      client.readContract({
        address: safe,
        abi: publishedArtifacts.Safe.abi,
        functionName: "getThreshold",
      });
    expect(await threshold(unsetSafe141)).toBe(0n);
    expect(await threshold(unsetSafe130)).toBe(0n);
    expect(await threshold(setUpSafe)).toBe(1n);
    // Run on a snapshot, so the checks below read the Safe as a sender would find it.
    const snapshot = await client.snapshot();
    await client.confirm(
      client.sendTransaction({
        account: stranger,
        to: unsetSafe141,
        data: safeInitializer([stranger.address], 1n),
      }),
    );
    // Signature type 1, "approved hash" by msg.sender, an owner now: r = owner, s = 0, v = 1.
    const signature =
      `0x${stranger.address.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}01` as const;
    await client.confirm(
      client.writeContract({
        account: stranger,
        address: unsetSafe141,
        abi: publishedArtifacts.Safe.abi,
        functionName: "execTransaction",
        args: [
          stranger.address,
          parseEther("0.5"),
          "0x",
          0,
          0n,
          0n,
          0n,
          zeroAddress,
          zeroAddress,
          signature,
        ],
      }),
    );
    expect(await client.getBalance({ address: unsetSafe141 })).toBe(0n);
    await client.revert({ id: snapshot });
    expect(await client.getBalance({ address: unsetSafe141 })).toBe(parseEther("0.5"));
  });

  it("says a Safe never set up lets anyone take what is sent: danger, on check and deep", async () => {
    for (const [address, version] of [
      [unsetSafe141, "1.4.1"],
      [unsetSafe130, "1.3.0"],
    ] as const) {
      const input = { address, chain: "base" as const };
      const check = await engine.check(input);
      const deep = await engine.deep(input);
      if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
      expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
      const { verdict, chain } = check.report;
      expect(verdict.reasons.map((reason) => reason.code)).toEqual(["safe_not_set_up"]);
      expect(verdict.headline).toBe("Safe never set up on Base: anyone can take what is sent here");
      expect(verdict.reasons[0]?.message).toBe(
        "This Safe shared wallet on Base was never set up: it has no owners yet, so anyone can make themselves its owner and take what is sent here.",
      );
      expect(verdict.next).toBe(
        "Do not send: this Safe has no owners yet; the recipient must finish setting it up (add owners) before it can be paid.",
      );
      expect(chain).toMatchObject({
        kind: "contract",
        kindLabel: `Safe ${version} proxy, never set up (no owners)`,
        safeNotSetUp: { proxyVersion: version },
        outgoingTxs: null,
      });
      expect(deep.report.verdict.reasons.map((reason) => reason.code)).toContain("safe_not_set_up");
    }
  });

  it("keeps a Safe set up by the same factory a Safe: deployed, never used (caution)", async () => {
    const check = await engine.check({ address: setUpSafe, chain: "base" });
    if (check.type !== "report") throw new Error("chain unreadable");
    expect(check.report.verdict.level).toBe("caution");
    expect(check.report.verdict.reasons.map((reason) => reason.code)).toEqual(["unused_account"]);
    expect(check.report.chain).toMatchObject({ kind: "safe", outgoingTxs: 0 });
    expect(check.report.chain.safeNotSetUp).toBeUndefined();
  });
});
