import type { ChainFacts } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { readableFacts, unreadableFacts } from "@presend/shared/verdict/chainFacts.test-helpers";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { createEngine, type FactsReader } from "./createEngine";

const address: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const fixedNow = () => new Date("2026-11-21T00:00:00.000Z");

function readerOf(facts: Partial<Record<ChainName, ChainFacts>>) {
  const reads: ChainName[] = [];
  const reader: FactsReader = {
    async read(_address, chain) {
      reads.push(chain);
      return facts[chain] ?? readableFacts(chain);
    },
  };
  return { reader, reads };
}

describe("createEngine", () => {
  it("check reads only the target chain and returns its report", async () => {
    const { reader, reads } = readerOf({ base: readableFacts("base", { nonce: 3, native: "1" }) });
    const result = await createEngine({ reader, now: fixedNow }).check({ address, chain: "base" });
    expect(reads).toEqual(["base"]);
    if (result.type !== "report") throw new Error("expected a report");
    expect(result.report.chain.name).toBe("base");
    expect(result.report.verdict.level).toBe("ok");
    expect(result.report.checkedAt).toBe("2026-11-21T00:00:00.000Z");
  });

  it("check answers unavailable (no report) when the target chain cannot be read", async () => {
    const { reader } = readerOf({ polygon: unreadableFacts("polygon", "timeout") });
    const result = await createEngine({ reader }).check({ address, chain: "polygon" });
    expect(result).toEqual({ type: "unavailable", chain: "polygon", error: "timeout" });
  });

  it("deep reads all five chains and puts the other four in others", async () => {
    const { reader, reads } = readerOf({
      arbitrum: readableFacts("arbitrum", { nonce: 9, native: "0.5" }),
    });
    const result = await createEngine({ reader }).deep({ address, chain: "base" });
    expect([...reads].sort()).toEqual(["arbitrum", "base", "ethereum", "optimism", "polygon"]);
    if (result.type !== "report") throw new Error("expected a report");
    expect(result.report.others.map((facts) => facts.name)).toEqual([
      "ethereum",
      "arbitrum",
      "optimism",
      "polygon",
    ]);
    expect(result.report.verdict.wrongNetwork).toEqual({ flagged: true, activeOn: ["arbitrum"] });
  });

  it("deep still reports, at least caution, when only another chain is unreadable", async () => {
    const { reader } = readerOf({
      base: readableFacts("base", { nonce: 3, native: "1" }),
      ethereum: unreadableFacts("ethereum"),
    });
    const result = await createEngine({ reader }).deep({ address, chain: "base" });
    if (result.type !== "report") throw new Error("expected a report");
    expect(result.report.verdict.level).not.toBe("ok");
  });
});
