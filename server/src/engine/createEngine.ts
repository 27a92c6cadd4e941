import { checksumStatus } from "@presend/shared/address/checksumStatus";
import type { ChainFacts, DeepReport, Report } from "@presend/shared/api/report";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { buildDeepReport } from "@presend/shared/verdict/buildDeepReport";
import { buildReport } from "@presend/shared/verdict/buildReport";
import type { Address } from "viem";

/** What the engine needs from a chain reader (server/src/chain/createChainReader.ts provides it). */
export type FactsReader = { read(address: Address, chain: ChainName): Promise<ChainFacts> };

export type CheckInput = { address: Address; chain: ChainName };

/** A report, or why none could be made: the target chain could not be read (nothing is charged). */
export type EngineResult<T> =
  | { type: "report"; report: T }
  | { type: "unavailable"; chain: ChainName; error: string };

export type Engine = {
  check(input: CheckInput): Promise<EngineResult<Report>>;
  deep(input: CheckInput): Promise<EngineResult<DeepReport>>;
};

/**
 * The check engine: reads the chain(s) and decides the verdict. The paid routes, the CLI's dev
 * check and the benchmark all go through this one object.
 * @example const result = await createEngine({ reader }).check({ address, chain: "base" });
 */
export function createEngine(deps: { reader: FactsReader; now?: () => Date }): Engine {
  const now = deps.now ?? (() => new Date());
  return {
    async check({ address, chain }) {
      const target = await deps.reader.read(address, chain);
      if (target.status === "unavailable") return unavailable(target);
      const report = buildReport({
        address,
        checksum: checksumStatus(address).checksum,
        target,
        checkedAt: now().toISOString(),
      });
      return { type: "report", report };
    },
    async deep({ address, chain }) {
      // All five chains in parallel: a deep check costs about one round trip, not five.
      const facts = await Promise.all(chainNames.map((name) => deps.reader.read(address, name)));
      const target = facts.find((entry) => entry.name === chain) as ChainFacts;
      if (target.status === "unavailable") return unavailable(target);
      const report = buildDeepReport({
        address,
        checksum: checksumStatus(address).checksum,
        target,
        others: facts.filter((entry) => entry.name !== chain),
        checkedAt: now().toISOString(),
      });
      return { type: "report", report };
    },
  };
}

function unavailable(target: ChainFacts): { type: "unavailable"; chain: ChainName; error: string } {
  return {
    type: "unavailable",
    chain: target.name,
    error: target.error ?? `${target.name} could not be read`,
  };
}
