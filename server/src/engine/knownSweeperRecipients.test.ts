import {
  artifacts,
  devnetAccounts,
  devnetClient,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { type Address, getAddress, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// A contract the registry lists as an EIP-7702 sweeper (BundleBear's "Crime"), checked as the
// address itself: its receive simulation passes the deposit on, as an exchange's deposit address
// does, and presend called it a "deposit address: send only the asset and network the exchange
// named". Sending there gives the money to a thief. Here the listed address runs sweeper code on
// Base (DemoSweeper, deployed by a real transaction and its runtime code installed at the listed
// address), and is checked there and from Ethereum, where it has no code.
//
// Its own world: installing code at a registry address, and the deployment, are writes, and the
// shared world belongs to files that only read it.

/** A sweeper of the registry (BundleBear's "Crime"), as the registry lists it. */
const listedSweeper = getAddress("0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d");

describe("a known sweeper's own address as the recipient (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  const thief = privateKeyToAccount(generatePrivateKey()).address;
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
    // DemoSweeper keeps its thief in an immutable, which the constructor writes into the runtime
    // code (no storage): the artifact's deployedBytecode has zeros there. So it is deployed for
    // real, and the code the chain then holds, thief included, is installed at the listed address.
    const deployment = await client.confirm(
      client.deployContract({
        account: deployer,
        abi: artifacts.DemoSweeper.abi,
        bytecode: artifacts.DemoSweeper.bytecode,
        args: [thief],
      }),
    );
    if (!deployment.contractAddress) throw new Error("DemoSweeper was not deployed");
    const runtime = await client.getCode({ address: deployment.contractAddress });
    if (!runtime) throw new Error("DemoSweeper has no code");
    await client.setCode({ address: listedSweeper, bytecode: runtime });
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("installs sweeper code at the listed address: a real deposit goes to the thief", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    await client.confirm(
      client.sendTransaction({ account: faucet, to: listedSweeper, value: parseEther("0.01") }),
    );
    expect(await client.getBalance({ address: listedSweeper })).toBe(0n);
    expect(await client.getBalance({ address: thief })).toBe(parseEther("0.01"));
    const elsewhere = devnetClient("ethereum", world.chains.ethereum.rpcUrl);
    expect(await elsewhere.getCode({ address: listedSweeper })).toBeUndefined();
  });

  it("calls it a contract known to steal deposits, never a deposit address: danger", async () => {
    const input = { address: listedSweeper as Address, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
    for (const { verdict } of [check.report, deep.report]) {
      expect(verdict.reasons[0]?.code).toBe("sweeper_contract");
      expect(verdict.headline).toBe("Contract known to steal deposits on Base");
      expect(verdict.next).toMatch(/^Do not send/);
      expect(verdict.reasons.map((reason) => reason.code)).not.toContain("deposit_forwarder");
      expect(`${verdict.headline} ${verdict.next}`).not.toMatch(/exchange|deposit address/i);
    }
    expect(check.report.chain).toMatchObject({
      kind: "contract",
      isContract: true,
      knownSweeper: { label: "Crime" },
      kindLabel: "EIP-7702 sweeper contract known to steal deposits (Crime)",
      // What the engine saw it do: the simulated deposit left, all of it to the thief.
      receiveSimulation: { outcome: "forwarded", forwardedTo: thief },
    });
  });

  it("stays a thief's address from Ethereum, where it has no code: danger, never its network", async () => {
    const input = { address: listedSweeper as Address, chain: "ethereum" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
    const { verdict, others } = deep.report;
    expect(verdict.reasons[0]?.code).toBe("sweeper_contract_elsewhere");
    expect(verdict.next).toBe(
      "Do not send on any network: this address belongs to a contract that steals deposits.",
    );
    const codes = verdict.reasons.map((reason) => reason.code);
    expect(codes).not.toContain("deposit_address_elsewhere");
    expect(codes).not.toContain("contract_elsewhere");
    expect(others.find((facts) => facts.name === "base")?.knownSweeper).toEqual({
      label: "Crime",
    });
  });
});
