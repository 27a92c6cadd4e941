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

  describe("deep, a Safe elsewhere and nothing here", () => {
    const singleton: Address = "0x3E5c63644E683549055b9Be8653de26E0B4CD36E";
    const safeOnEthereum = {
      ...readableFacts("ethereum", { kind: "safe", nonce: 4 }),
      safe: { owners: 3, threshold: 2, singleton },
    };
    // The singleton on base answers as `singletonHere` says; everything else as readerOf would.
    function readerWithSingleton(singletonHere: ChainFacts) {
      const reads: string[] = [];
      const reader: FactsReader = {
        async read(read, chain) {
          reads.push(`${chain}:${read}`);
          if (read === singleton) return singletonHere;
          return chain === "ethereum" ? safeOnEthereum : readableFacts(chain);
        },
      };
      return { reader, reads };
    }

    it("reads the Safe's singleton on the target chain, and a missing one is danger", async () => {
      const { reader, reads } = readerWithSingleton(readableFacts("base"));
      const result = await createEngine({ reader }).deep({ address, chain: "base" });
      if (result.type !== "report") throw new Error("expected a report");
      expect(reads).toContain(`base:${singleton}`);
      expect(result.report.verdict.reasons[0]?.code).toBe("safe_not_deployable");
    });

    it("is recoverable when the singleton has code on the target chain", async () => {
      const { reader } = readerWithSingleton(readableFacts("base", { kind: "contract" }));
      const result = await createEngine({ reader }).deep({ address, chain: "base" });
      if (result.type !== "report") throw new Error("expected a report");
      expect(result.report.verdict.level).toBe("warn");
      expect(result.report.verdict.reasons[0]?.code).toBe("safe_elsewhere");
    });

    it("says it could not confirm when the singleton's read failed, never ok", async () => {
      const { reader } = readerWithSingleton(unreadableFacts("base", "timeout"));
      const result = await createEngine({ reader }).deep({ address, chain: "base" });
      if (result.type !== "report") throw new Error("expected a report");
      expect(result.report.verdict.level).toBe("warn");
      expect(result.report.verdict.reasons[0]?.message).toContain("could not confirm");
    });

    it("reads no singleton when the address has code here", async () => {
      const { reader, reads } = readerWithSingleton(readableFacts("base"));
      const withCode: FactsReader = {
        read: (read, chain, options) =>
          chain === "base" && read === address
            ? Promise.resolve(readableFacts("base", { kind: "contract" }))
            : reader.read(read, chain, options),
      };
      await createEngine({ reader: withCode }).deep({ address, chain: "base" });
      expect(reads).not.toContain(`base:${singleton}`);
    });
  });
});
