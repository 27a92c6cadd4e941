import { demoAddresses, demoAddressListFile, type World, worldRpcUrls } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { loadAddressLists } from "../lists/loadAddressLists";
import { createEngine, type Engine } from "./createEngine";

// The README's demo table is a promise: every demo address gets its documented verdict from the
// real engine reading the real local chains.
describe("demo world verdicts (real anvil chains)", () => {
  let world: World;
  let engine: Engine;

  beforeAll(async () => {
    // Reads only: the run's shared world.
    world = sharedWorld();
    const rpcUrls = worldRpcUrls(world);
    // The engine as composeServer builds it: facts, history and the demo address list.
    engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls }),
      lists: await loadAddressLists({ files: [demoAddressListFile], watch: false }),
    });
  });

  it.each(demoAddresses.map((demo) => [demo.label, demo] as const))(
    "%s gets its documented check and deep verdicts",
    async (_, demo) => {
      const input = { address: demo.address, chain: demo.chain };
      const check = await engine.check(input);
      const deep = await engine.deep(input);
      if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
      expect(check.report.verdict.level).toBe(demo.expected.check);
      expect(deep.report.verdict.level).toBe(demo.expected.deep);
      expect(deep.report.others).toHaveLength(4);
      // Every readable chain says what the address is, in words.
      for (const facts of [deep.report.chain, ...deep.report.others]) {
        if (facts.status === "ok") expect(facts.kindLabel).toEqual(expect.any(String));
      }
    },
  );

  const withSender = demoAddresses.flatMap((demo) =>
    demo.withFrom ? [[demo.label, demo, demo.withFrom] as const] : [],
  );
  it.each(withSender)(
    "%s gets its documented verdicts with from (the sender with history)",
    async (_, demo, withFrom) => {
      const input = { address: demo.address, chain: demo.chain, from: withFrom.from };
      const check = await engine.check(input);
      const deep = await engine.deep(input);
      if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
      expect(check.report.verdict.level).toBe(withFrom.check);
      expect(deep.report.verdict.level).toBe(withFrom.deep);
      expect(check.report.from).toBe(withFrom.from);
    },
  );

  it.each([
    [
      "used-safe-on-base",
      "active_wallet",
      "Active Safe shared wallet (1 of 2 owners sign) on Base",
    ],
    ["unused-safe-on-base", "unused_account", "deployed, never used"],
    ["used-smart-account-on-base", "active_wallet", "Active smart wallet on Base"],
    ["eip7702-wallet-delegate-on-base", "active_wallet", "Simple7702Account smart wallet"],
    ["eip7702-sweeper-on-base", "eip7702_sweeper", "Anything sent here is taken on arrival"],
    ["erc20-token-on-base", "token_contract", "token contract (DEMO) on Base, not a wallet"],
    ["nft-collection-on-base", "nft_contract", "NFT collection (DEMONFT) on Base, not a wallet"],
    ["contract-rejecting-eth-on-base", "unknown_contract", "A native send to it would revert."],
  ])("%s: the deciding reason is %s and says what it is", async (label, code, text) => {
    const demo = demoAddresses.find((entry) => entry.label === label);
    if (!demo) throw new Error(`demo address ${label} missing`);
    const check = await engine.check({ address: demo.address, chain: demo.chain });
    if (check.type !== "report") throw new Error("chain unreadable");
    const [deciding] = check.report.verdict.reasons;
    expect(deciding?.code).toBe(code);
    expect(`${check.report.verdict.headline} ${deciding?.message}`).toContain(text);
    expect(check.report.report).toContain(text);
  });

  it("grades the Safe from the canonical singleton as maybe recoverable on a deep check on Base", async () => {
    const demo = demoAddresses.find((entry) => entry.label === "canonical-safe-on-ethereum-only");
    if (!demo) throw new Error("demo address missing");
    const deep = await engine.deep({ address: demo.address, chain: "base" });
    if (deep.type !== "report") throw new Error("chain unreadable");
    const ethereum = deep.report.others.find((facts) => facts.name === "ethereum");
    // The singleton as the proxy names it: Safe 1.3.0 L2's canonical address.
    expect(ethereum?.safe?.singleton).toBe("0x3E5c63644E683549055b9Be8653de26E0B4CD36E");
    expect(deep.report.verdict.reasons[0]).toMatchObject({ code: "safe_elsewhere", level: "warn" });
    expect(deep.report.verdict.reasons[0]?.message).toContain(
      "its owners may be able to create it at this address on Base, but only if it was made in a way that gives the same address on every network",
    );
  });

  it("grades a Safe whose singleton exists on Ethereum only as stranded on Base", async () => {
    const demo = demoAddresses.find((entry) => entry.label === "safe-on-ethereum-only");
    if (!demo) throw new Error("demo address missing");
    const deep = await engine.deep({ address: demo.address, chain: "base" });
    if (deep.type !== "report") throw new Error("chain unreadable");
    expect(deep.report.verdict.reasons[0]).toMatchObject({
      code: "safe_not_deployable",
      level: "danger",
      chain: "ethereum",
    });
    expect(deep.report.verdict.next).toBe(
      "Do not send on Base: send on Ethereum, or ask the recipient for an address that works on Base.",
    );
    expect(deep.report.verdict.reasons.map((reason) => reason.code)).not.toContain(
      "safe_elsewhere",
    );
  });

  it("flags the arbitrum-only EOA as wrong network on a deep check on Base", async () => {
    const demo = demoAddresses.find((entry) => entry.label === "eoa-active-on-arbitrum-only");
    if (!demo) throw new Error("demo address missing");
    const deep = await engine.deep({ address: demo.address, chain: "base" });
    if (deep.type !== "report") throw new Error("chain unreadable");
    expect(deep.report.verdict.wrongNetwork).toEqual({ flagged: true, activeOn: ["arbitrum"] });
  });

  it("answers unavailable, not a report, when the target chain is down", async () => {
    const reader = createChainReader({
      rpcUrls: {
        ...worldRpcUrls(world),
        base: ["http://127.0.0.1:9"],
      },
      timeoutMs: 500,
    });
    const result = await createEngine({ reader }).check({
      address: demoAddresses[0]?.address as `0x${string}`,
      chain: "base",
    });
    expect(result.type).toBe("unavailable");
  });
});
