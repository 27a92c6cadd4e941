import {
  devnetAccounts,
  devnetClient,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { ChainName } from "@presend/shared/chains/chains";
import { type Address, concat, getAddress, type Hex, parseEther, size } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFactsBatch } from "../chain/buildFactsBatch";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// A recipient whose code answers every call with 60 kB: the fourteen behaviour probes alone make
// the facts answer over a megabyte of hex, past the reader's 1 MB bound, and the check used to
// answer "chain unavailable" (503, no verdict) for it: a contract could make itself uncheckable.
// Asked again without the parts the address decides the size of, it gets a verdict, never ok.
//
// Its own world: the contract and the delegation are real transactions from keys made here.

/** Runtime code: RETURN(0, 60000), whatever the call: 60 kB of zeros to every question. */
const answersWith60kB: Hex = "0x61ea606000f3";
/** Init code that deploys it: CODECOPY the 6 runtime bytes after these 12, RETURN them. */
const deployAnswersWith60kB = concat(["0x6006600c60003960066000f3", answersWith60kB]);

describe("recipients whose answers are over the size bound (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  let rpcUrls: Record<ChainName, string[]>;
  let contract: Address;
  const delegated = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    rpcUrls = worldRpcUrls(world);
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    const receipt = await client.confirm(
      client.sendTransaction({ account: faucet, data: deployAnswersWith60kB }),
    );
    contract = getAddress(receipt.contractAddress as Address);
    await client.confirm(
      client.sendTransaction({ account: faucet, to: delegated.address, value: parseEther("1") }),
    );
    // The delegation rides in a plain send to the faucet, as a wallet would send it.
    const authorization = await client.signAuthorization({
      account: delegated,
      contractAddress: contract,
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
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("is deployed as written, and its full facts answer really is over the 1 MB bound", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    expect(await client.getCode({ address: contract })).toBe(answersWith60kB);
    const response = await fetch(rpcUrls.base[0] as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(buildFactsBatch(contract, "base")),
    });
    expect(size(new Uint8Array(await response.arrayBuffer()))).toBeGreaterThan(1_000_000);
  });

  it("checks the contract: a verdict of at least warn, what it is named unknown", async () => {
    const input = { address: contract, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report") throw new Error(`check: ${JSON.stringify(check)}`);
    if (deep.type !== "report") throw new Error(`deep: ${JSON.stringify(deep)}`);
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["warn", "warn"]);
    expect(check.report.chain.kind).toBe("contract");
    expect(check.report.chain.unknowns?.join(" ")).toContain("answers were too large to read");
    expect(check.report.chain.receiveSimulation?.outcome).toBe("unavailable");
    // Balances and gas are still read: only what the address itself answers is lost.
    expect(check.report.chain.native).not.toBeNull();
    expect(check.report.chain.gas).not.toBeNull();
  });

  it("checks an EIP-7702 account delegated to it: still an account, never ok", async () => {
    const check = await engine.check({ address: delegated.address, chain: "base" });
    if (check.type !== "report") throw new Error(`check: ${JSON.stringify(check)}`);
    expect(check.report.chain.kind).toBe("eip7702-delegated");
    expect(check.report.chain.delegate).toBe(contract);
    expect(check.report.verdict.level).not.toBe("ok");
    expect(check.report.chain.receiveSimulation?.outcome).toBe("unavailable");
  });
});
