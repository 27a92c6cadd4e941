import type { ChainHistory } from "@presend/shared/api/history";
import type { ChainFacts, DeepReport, Report } from "@presend/shared/api/report";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { buildDeepReport } from "@presend/shared/verdict/buildDeepReport";
import { buildReport } from "@presend/shared/verdict/buildReport";
import { isSafeLookalike } from "@presend/shared/verdict/isSafeLookalike";
import { type Address, getAddress } from "viem";
import type { BatchCompanion } from "../chain/createChainReader";
import type { HistoryRide } from "../chain/history/createHistoryReader";
import { serverChecksumStatus } from "../checksum/serverChecksumStatus";
import type { AddressLists } from "../lists/loadAddressLists";

/** What the engine needs from a chain reader (server/src/chain/createChainReader.ts provides it). */
export type FactsReader = {
  /**
   * `sender`: who the receive simulation sends from (the request's `from`, else a plain EOA);
   * `companion`: the history's entries, sent in the same batch.
   */
  read(
    address: Address,
    chain: ChainName,
    options?: { sender?: Address; companion?: BatchCompanion },
  ): Promise<ChainFacts>;
};

type HistoryInput = { address: Address; from: Address | null; chain: ChainName };

/** What the engine needs from a history reader (server/src/chain/history/createHistoryReader.ts). */
export type HistorySource = {
  read(input: HistoryInput): Promise<ChainHistory>;
  /** The read riding in the facts batch, when its endpoint is the facts' (one request per chain). */
  ride?(input: HistoryInput): Promise<HistoryRide | null>;
};

export type CheckInput = {
  address: Address;
  chain: ChainName;
  /** The sender, when the request named one: its own payment history is read too. */
  from?: Address;
};

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
 * check and the benchmark all go through this one object. With a history source each chain's
 * history queries ride in its facts batch (one request per chain) when both use the same
 * endpoint, and go out beside it otherwise (two requests in parallel, one round trip); with
 * address lists the checked address and where it sends its tokens are looked up.
 * @example const result = await createEngine({ reader, history }).check({ address, chain: "base", from });
 */
export function createEngine(deps: {
  reader: FactsReader;
  history?: HistorySource;
  lists?: AddressLists;
  now?: () => Date;
}): Engine {
  const now = deps.now ?? (() => new Date());

  async function readChain(address: Address, from: Address | null, chain: ChainName) {
    const sender = from ? { sender: from } : {};
    const ride = await deps.history?.ride?.({ address, from, chain });
    if (ride) {
      const companion = ride.companion ? { companion: ride.companion } : {};
      const facts = await deps.reader.read(address, chain, { ...sender, ...companion });
      // An unreadable chain has no history to wait for.
      return facts.status === "ok" ? { ...facts, history: await ride.history } : facts;
    }
    const [facts, history] = await Promise.all([
      deps.reader.read(address, chain, sender),
      deps.history?.read({ address, from, chain }),
    ]);
    return facts.status === "ok" && history ? { ...facts, history } : facts;
  }

  function sender(input: CheckInput) {
    return {
      from: input.from ?? null,
      extra: (facts: readonly ChainFacts[]) => {
        const lists = deps.lists?.report(input.address, input.chain, facts);
        return { ...(input.from && { from: input.from }), ...(lists && { lists }) };
      },
    };
  }

  /**
   * With nothing at the address here and a Safe there elsewhere: whether the singleton each such
   * Safe runs has code here, which decides whether its owners can create the Safe here too. A
   * second round trip, taken only in that case; a singleton that could not be read is left out.
   */
  async function readSingletonsHere(target: ChainFacts, others: readonly ChainFacts[]) {
    if (target.status !== "ok" || target.isContract !== false) return undefined;
    const singletons = new Set<string>();
    for (const facts of others) {
      // A lookalike's singleton decides nothing: no Safe factory can make it here anyway.
      const singleton =
        facts.status === "ok" &&
        facts.kind === "safe" &&
        !isSafeLookalike(facts) &&
        facts.safe?.singleton;
      if (singleton) singletons.add(singleton.toLowerCase());
    }
    if (singletons.size === 0) return undefined;
    const read = await Promise.all(
      [...singletons].map(async (singleton) => {
        const facts = await deps.reader.read(getAddress(singleton), target.name);
        return facts.status === "ok" ? [[singleton, facts.isContract === true] as const] : [];
      }),
    );
    return Object.fromEntries(read.flat());
  }

  return {
    async check(input) {
      const { address, chain } = input;
      const { from, extra } = sender(input);
      const target = await readChain(address, from, chain);
      if (target.status === "unavailable") return unavailable(target);
      const report = buildReport({
        address,
        checksum: serverChecksumStatus(address).checksum,
        target,
        checkedAt: now().toISOString(),
        ...extra([target]),
      });
      return { type: "report", report };
    },
    async deep(input) {
      const { address, chain } = input;
      const { from, extra } = sender(input);
      // All five chains in parallel: a deep check costs about one round trip, not five.
      const facts = await Promise.all(chainNames.map((name) => readChain(address, from, name)));
      const target = facts.find((entry) => entry.name === chain) as ChainFacts;
      if (target.status === "unavailable") return unavailable(target);
      const others = facts.filter((entry) => entry.name !== chain);
      const singletonsHere = await readSingletonsHere(target, others);
      const report = buildDeepReport({
        address,
        checksum: serverChecksumStatus(address).checksum,
        target,
        others,
        ...(singletonsHere && { singletonsHere }),
        checkedAt: now().toISOString(),
        ...extra(facts),
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
