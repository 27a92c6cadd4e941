import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { demoAddresses } from "../devnet/demoWorld";
import { startWorld, type World } from "../devnet/startWorld";
import { createEngine, type Engine } from "./createEngine";

// The README's demo table is a promise: every demo address gets its documented verdict from the
// real engine reading the real local chains.
describe("demo world verdicts (real anvil chains)", () => {
  let world: World;
  let engine: Engine;

  beforeAll(async () => {
    world = await startWorld();
    const rpcUrls = Object.fromEntries(
      chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
    ) as Record<ChainName, string[]>;
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });
  });
  afterAll(() => world?.stop());

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
    },
  );

  it("flags the arbitrum-only EOA as wrong network on a deep check on base", async () => {
    const demo = demoAddresses.find((entry) => entry.label === "eoa-active-on-arbitrum-only");
    if (!demo) throw new Error("demo address missing");
    const deep = await engine.deep({ address: demo.address, chain: "base" });
    if (deep.type !== "report") throw new Error("chain unreadable");
    expect(deep.report.verdict.wrongNetwork).toEqual({ flagged: true, activeOn: ["arbitrum"] });
  });

  it("answers unavailable, not a report, when the target chain is down", async () => {
    const reader = createChainReader({
      rpcUrls: {
        ...(Object.fromEntries(
          chainNames.map((name) => [name, [world.chains[name].rpcUrl]]),
        ) as Record<ChainName, string[]>),
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
