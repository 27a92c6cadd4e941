import {
  artifacts,
  devnetAccounts,
  devnetClient,
  lookalikeOf,
  mintStablecoin,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { Report } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { parseEther, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { type SplitHeightRpc, startSplitHeightRpc } from "../chain/startSplitHeightRpc";
import { createEngine, type EngineResult } from "./createEngine";

// What a check says when the nodes behind one RPC endpoint are out of step, as behind a real
// provider's load balancer: consecutive requests, or the entries of one batch, answered by a node
// at the head and one some blocks behind; the chain's head going back in a reorganisation. Real
// anvil chains and real transfers; the load balancer is a proxy in front of the real base chain.
//
// Its own world: the payments, the reorganisation and the mined blocks are made here.

const usdcUnits = (amount: string) => parseUnits(amount, 6);
const lag = 20;

describe("nodes out of step behind one endpoint (real anvil, real transfers)", () => {
  let world: World;
  let client: ReturnType<typeof devnetClient>;
  let balancer: SplitHeightRpc;
  let rpcUrls: Record<ChainName, string[]>;
  const victim = privateKeyToAccount(generatePrivateKey());
  const genuine = privateKeyToAccount(generatePrivateKey()).address;
  const planted = lookalikeOf(genuine, "out of step");
  // The blocks of the victim's payments to the genuine counterparty, on the chain as it is now.
  const payments: bigint[] = [];
  const paidUpTo = (block: string | null | undefined) =>
    payments.filter((paid) => paid <= BigInt(block ?? 0)).length;

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    await client.confirm(
      client.sendTransaction({ account: faucet, to: victim.address, value: parseEther("1") }),
    );
    await mintStablecoin(client, {
      token: chains.base.usdc.address,
      minter: faucet,
      to: victim.address,
      amount: usdcUnits("100"),
    });
    // Old enough for every node.
    await client.mine({ blocks: lag + 5 });
    balancer = await startSplitHeightRpc(world.chains.base.rpcUrl);
    rpcUrls = { ...worldRpcUrls(world), base: [balancer.url] };
  }, 120_000);
  afterAll(async () => {
    await balancer?.close();
    await world?.stop();
  });
  afterEach(() => {
    balancer.lag = 0;
    balancer.route = "requests";
    balancer.order = ["ahead"];
    balancer.beyondHead = "error";
  });

  /** The victim's payment to its genuine counterparty, in a new block on the real chain. */
  async function pay(amount = "10") {
    const receipt = await client.confirm(
      client.writeContract({
        account: victim,
        address: chains.base.usdc.address,
        abi: artifacts.PresendStablecoin.abi,
        functionName: "transfer",
        args: [genuine, usdcUnits(amount)],
      }),
    );
    payments.push(receipt.blockNumber);
    return receipt.blockNumber;
  }

  /** The engine as composeServer builds it: history riding in the facts batch, no cache. */
  async function engineOn(urls: Record<ChainName, string[]>, historyUrls = urls) {
    const history = createHistoryReader({ rpcUrls: historyUrls, factsRpcUrls: urls, ttlMs: 0 });
    await history.prime();
    reader = createChainReader({ rpcUrls: urls, ttlMs: 0 });
    return createEngine({ reader, history });
  }
  let reader: ReturnType<typeof createChainReader>;

  const reportOf = (result: EngineResult<Report>): Report => {
    if (result.type !== "report") throw new Error(`no report: ${result.error}`);
    return result.report;
  };

  /**
   * A history that says it was read up to a block holds every payment up to it: the lookalike
   * of a counterparty paid there is poisoning; a history not read is named so, never ok.
   */
  function expectLookalikeHonest(report: Report) {
    const history = report.chain.history;
    const codes = report.verdict.reasons.map((reason) => reason.code);
    if (history?.status !== "read") {
      expect(report.verdict.level).not.toBe("ok");
      expect(codes[0]).toBe("history_unknown");
    } else if (paidUpTo(history.toBlock) > 0) {
      expect(report.verdict.level).toBe("danger");
      expect(codes).toContain("address_poisoning");
    } else {
      // Read as of a block before the payment: nothing to find yet.
      expect(codes).not.toContain("address_poisoning");
    }
  }

  it("the log queries of one batch on a node behind the head: history named unread, never read short", async () => {
    await pay();
    await client.mine({ blocks: 1 });
    const engine = await engineOn(rpcUrls);
    // The head is learned on a check all on the node at the head, after the payment.
    reportOf(await engine.check({ address: genuine, chain: "base", from: victim.address }));
    balancer.lag = lag;
    balancer.route = "entries";
    balancer.pick = ({ method }) => (method === "eth_getLogs" ? "behind" : "ahead");
    const report = reportOf(
      await engine.check({ address: planted, chain: "base", from: victim.address }),
    );
    expect(balancer.answered).toContainEqual({ node: "behind", method: "eth_getLogs" });
    expect(report.chain.history?.status).toBe("unknown");
    expect(report.chain.history?.error).toMatch(/had not reached block \d+/);
    expectLookalikeHonest(report);
    // A deep check reads base the same way, beside the other four chains.
    const deep = await engine.deep({ address: planted, chain: "base", from: victim.address });
    if (deep.type !== "report") throw new Error(`no report: ${deep.error}`);
    expect(deep.report.chain.history?.status).toBe("unknown");
    expectLookalikeHonest(deep.report);
  });

  it("the history's own endpoint splitting its batch: the head from one node, the logs from one behind", async () => {
    await pay();
    await client.mine({ blocks: 1 });
    balancer.lag = lag;
    balancer.route = "entries";
    balancer.pick = ({ method }) => (method === "eth_getLogs" ? "behind" : "ahead");
    // Facts straight from the chain, the history from its own endpoint (HISTORY_RPC_URLS).
    const engine = await engineOn(worldRpcUrls(world), rpcUrls);
    const report = reportOf(
      await engine.check({ address: planted, chain: "base", from: victim.address }),
    );
    expectLookalikeHonest(report);
  });

  it("consecutive requests alternating between a node at the head and one behind: every check answers, at one block", async () => {
    await pay();
    await client.mine({ blocks: 1 });
    const engine = await engineOn(rpcUrls);
    balancer.lag = lag;
    balancer.order = ["ahead", "behind"];
    for (let run = 0; run < 6; run++) {
      const report = reportOf(
        await engine.check({ address: genuine, chain: "base", from: victim.address }),
      );
      const history = report.chain.history;
      expect(history?.status).toBe("read");
      // The facts and the history of one block: the payment is there exactly when the block is
      // at or after it.
      expect(history?.toBlock).toBe(report.chain.blockNumber);
      expect(history?.sender?.paidRecipient?.payments ?? 0).toBe(paidUpTo(history?.toBlock));
      expectLookalikeHonest(
        reportOf(await engine.check({ address: planted, chain: "base", from: victim.address })),
      );
    }
    expect(balancer.answered.some((call) => call.node === "behind")).toBe(true);
  });

  it("a transfer the logs read from a node ahead of the balances: left out, the history ends where the facts were read", async () => {
    const engine = await engineOn(rpcUrls);
    reportOf(await engine.check({ address: genuine, chain: "base", from: victim.address }));
    await pay("1");
    await client.mine({ blocks: 1 });
    balancer.lag = lag;
    balancer.route = "entries";
    // The head and the balances (one aggregate3 eth_call) from the node behind, the logs from
    // the node at the head.
    balancer.pick = ({ method }) => (method === "eth_call" ? "behind" : "ahead");
    const report = reportOf(
      await engine.check({ address: genuine, chain: "base", from: victim.address }),
    );
    const history = report.chain.history;
    expect(history?.status).toBe("read");
    expect(history?.toBlock).toBe(report.chain.blockNumber);
    expect(BigInt(history?.toBlock ?? 0)).toBeLessThan(payments.at(-1) ?? 0n);
    expect(history?.sender?.paidRecipient?.payments ?? 0).toBe(paidUpTo(history?.toBlock));
  });

  it("a reorganisation to a shorter branch: the check reads the new branch, not the orphaned payment", async () => {
    const engine = await engineOn(rpcUrls);
    const snapshot = await client.snapshot();
    const orphaned = await pay("7");
    const kept = payments.length - 1;
    await client.mine({ blocks: 5 });
    const before = reportOf(
      await engine.check({ address: genuine, chain: "base", from: victim.address }),
    );
    expect(BigInt(before.chain.blockNumber ?? 0)).toBeGreaterThan(orphaned);
    const paymentsBefore = before.chain.history?.sender?.paidRecipient?.payments ?? 0;
    // The chain goes back below the payment and mines another transaction instead.
    await client.revert({ id: snapshot });
    const other = privateKeyToAccount(generatePrivateKey()).address;
    await client.confirm(
      client.sendTransaction({ account: victim, to: other, value: parseEther("0.001") }),
    );
    const requests = reader.stats().perChain.base;
    const after = reportOf(
      await engine.check({ address: genuine, chain: "base", from: victim.address }),
    );
    // Pinned to the old head, which the new branch has not reached: asked once more at its head.
    expect(reader.stats().perChain.base - requests).toBe(2);
    expect(BigInt(after.chain.blockNumber ?? 0)).toBeLessThan(
      BigInt(before.chain.blockNumber ?? 0),
    );
    expect(after.chain.history?.status).toBe("read");
    expect(after.chain.history?.toBlock).toBe(after.chain.blockNumber);
    payments.splice(kept);
    expect(after.chain.history?.sender?.paidRecipient?.payments ?? 0).toBe(paymentsBefore - 1);
    expect(after.chain.history?.sender?.paidRecipient?.payments ?? 0).toBe(
      paidUpTo(after.chain.blockNumber),
    );
  });
});
