import type { ChainFacts } from "@presend/shared/api/report";

/**
 * A cache shared by every replica (Redis), behind a reader's own memory cache: a read another
 * replica made within its TTL is served without an upstream request, and replicas that miss
 * together read upstream once. Chain facts by default; the history reader keeps its histories in
 * another one.
 */
export type SharedFactsCache<T = ChainFacts> = {
  /** The cached value for `key`, or `read()`'s, kept for `ttlFor(value)` ms (0: not kept). */
  through(
    key: string,
    read: () => Promise<T>,
    ttlFor: (value: T) => number,
  ): Promise<{ facts: T; fromCache: boolean }>;
};
