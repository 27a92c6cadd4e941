import {
  devnetAccounts,
  devnetClient,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { Level } from "@presend/shared/api/report";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// Recipients whose code uses up all the gas of a call it does not understand: the precompiles
// past 0x04 given input they refuse, Nick's CREATE2 factory (on every chain) given no init code,
// and an EIP-7702 account delegated to itself or to another delegated account (its code is then
// a delegation designator, whose 0xef is an invalid opcode). Every behaviour probe burns 63/64 of
// the gas left, so a few of them used to starve the whole aggregate3, and the check answered
// "chain unavailable" (503, no verdict) for addresses whose verdict is plain.
//
// Its own world: the delegations are sent as real transactions by keys made here, and the
// shared world belongs to files that only read it.

/** Nick's deterministic deployment proxy: anvil has it, as every chain people use does. */
const create2Factory: Address = "0x4e59b44847b379578588920cA78FbF26c0B4956C";

type Row = {
  name: string;
  address: () => Address;
  level: Level;
  /** The deciding reason. */
  code: string;
  /** Text the deciding reason's message or the headline must contain. */
  says: string;
  /** Another reason the verdict must give. */
  also?: string;
};

describe("recipients whose code burns all the gas it is given (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  const selfDelegated = privateKeyToAccount(generatePrivateKey());
  const chained = privateKeyToAccount(generatePrivateKey());
  const middle = privateKeyToAccount(generatePrivateKey());
  // Holds no code: the middle account delegates to it.
  const empty = privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    const rpcUrls = worldRpcUrls(world);
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    for (const account of [selfDelegated, chained, middle]) {
      await client.confirm(
        client.sendTransaction({ account: faucet, to: account.address, value: parseEther("1") }),
      );
    }
    // Each delegation rides in a plain send to the faucet: a call to the account itself would
    // run its new code, which is what the rows below are about.
    const delegate = async (account: typeof selfDelegated, to: Address) => {
      const authorization = await client.signAuthorization({
        account,
        contractAddress: to,
        executor: "self",
      });
      await client.confirm(
        client.sendTransaction({
          account,
          to: faucet.address,
          gas: 100_000n,
          authorizationList: [authorization],
        }),
      );
    };
    await delegate(selfDelegated, selfDelegated.address);
    await delegate(middle, empty);
    await delegate(chained, middle.address);
  });

  afterAll(async () => {
    await world?.stop();
  });

  const rows: Row[] = [
    {
      name: "the modexp precompile (0x05)",
      address: () => "0x0000000000000000000000000000000000000005",
      level: "danger",
      code: "precompile",
      says: "This is the modexp precompile",
    },
    {
      name: "the BLS12-381 G1ADD precompile (0x0b)",
      address: () => "0x000000000000000000000000000000000000000b",
      level: "danger",
      code: "precompile",
      says: "This is the BLS12-381 G1ADD precompile",
    },
    {
      name: "Nick's CREATE2 factory (anvil's, as on every chain)",
      address: () => create2Factory,
      level: "warn",
      code: "unknown_contract",
      says: "Contract on Base that rejects native transfers",
      also: "unclassified",
    },
    {
      name: "an EIP-7702 account delegated to itself",
      address: () => selfDelegated.address,
      level: "warn",
      code: "eip7702_rejects_native",
      says: "ETH sent to this wallet would fail on Base",
    },
    {
      name: "an EIP-7702 account delegated to another delegated account",
      address: () => chained.address,
      level: "warn",
      code: "eip7702_rejects_native",
      says: "ETH sent to this wallet would fail on Base",
    },
  ];

  it.each(rows)("$name: a verdict, not an unreadable chain", async (row) => {
    const input = { address: row.address(), chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report") throw new Error(`check: ${JSON.stringify(check)}`);
    if (deep.type !== "report") throw new Error(`deep: ${JSON.stringify(deep)}`);
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual([row.level, row.level]);
    const [deciding] = check.report.verdict.reasons;
    expect(deciding?.code).toBe(row.code);
    expect(`${check.report.verdict.headline} ${deciding?.message}`).toContain(row.says);
    if (row.also) expect(check.report.verdict.reasons.map((r) => r.code)).toContain(row.also);
    // The balances are still read: only what the address answers is lost.
    expect(check.report.chain.native).not.toBeNull();
    expect(check.report.chain.usdc).not.toBeNull();
  });

  it("builds each account from real delegations, and a plain send to it really reverts", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const designator = (to: Address) => `0xef0100${to.slice(2).toLowerCase()}`;
    expect(await client.getCode({ address: selfDelegated.address })).toBe(
      designator(selfDelegated.address),
    );
    expect(await client.getCode({ address: chained.address })).toBe(designator(middle.address));
    expect(await client.getCode({ address: middle.address })).toBe(designator(empty));
    for (const account of [selfDelegated.address, chained.address]) {
      await expect(
        client.call({ account: devnetAccounts.faucet.address, to: account, value: 1n }),
      ).rejects.toThrow();
    }
  });

  it("says what it could not read about a contract that burns every call's gas", async () => {
    const check = await engine.check({ address: create2Factory, chain: "base" });
    if (check.type !== "report") throw new Error("chain unreadable");
    expect(check.report.chain.kind).toBe("contract");
    expect(check.report.chain.unknowns?.join(" ")).toContain("ran out of gas");
  });
});
