import type { ChainFacts } from "@presend/shared/api/report";

/**
 * A facts cache shared by every replica (Redis), behind the reader's own memory cache: a read
 * another replica made within its TTL is served without an upstream request, and replicas that
 * miss together read upstream once.
 */
export type SharedFactsCache = {
  /** The cached facts for `key`, or `read()`'s, kept for `ttlFor(facts)` ms (0: not kept). */
  through(
    key: string,
    read: () => Promise<ChainFacts>,
    ttlFor: (facts: ChainFacts) => number,
  ): Promise<{ facts: ChainFacts; fromCache: boolean }>;
};
