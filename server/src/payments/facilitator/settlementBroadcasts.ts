import type { Hex } from "viem";

/**
 * How long after its settlement call ended an authorization's broadcast is still named. The
 * settle hooks ask as soon as the call returns; the margin only keeps a slow hook on the safe
 * side. Past it the authorization is not known here any more, which no caller reads as "nothing
 * was sent".
 */
export const broadcastKeptMs = 10 * 60_000;

export type SettlementBroadcasts = {
  /** A settlement call of the authorization starts; call the function returned when it ends. */
  settling(payer: string, nonce: string): () => void;
  /** The transaction a settlement of the authorization broadcast. */
  broadcast(payer: string, nonce: string, hash: Hex): void;
  /**
   * The transaction broadcast for the authorization; null when a settlement call of it ran here
   * (or runs now) and broadcast nothing; undefined when no call of it is known here: never
   * settled here, or its call ended longer than the window ago.
   */
  of(payer: string, nonce: string): Hex | null | undefined;
  /** Authorizations held (settling now, or ended within the window). */
  size(): number;
};

type Entry = { hash: Hex | null; calls: number; endedAt: number | null };

/**
 * What the in-process facilitator broadcast for each authorization it settled, held while the
 * settlement runs and for `keptMs` after it ended, then forgotten: a facilitator that settles for
 * weeks holds only the last window's settlements, never one per payment it ever made.
 * @example const broadcasts = createSettlementBroadcasts(); const ended = broadcasts.settling(payer, nonce);
 */
export function createSettlementBroadcasts(
  options: { keptMs?: number; now?: () => number } = {},
): SettlementBroadcasts {
  const keptMs = options.keptMs ?? broadcastKeptMs;
  const now = options.now ?? Date.now;
  // Ended entries are moved to the end when they end, so they lie in the order they ended: the
  // sweep stops at the first one still young. Entries still settling are skipped, never dropped.
  const entries = new Map<string, Entry>();
  const keyOf = (payer: string, nonce: string) => `${payer.toLowerCase()}:${nonce.toLowerCase()}`;

  const sweep = () => {
    const oldest = now() - keptMs;
    for (const [key, entry] of entries) {
      if (entry.endedAt === null) continue;
      if (entry.endedAt > oldest) break;
      entries.delete(key);
    }
  };
  const ended = (key: string, entry: Entry) => {
    entry.endedAt = now();
    entries.delete(key);
    entries.set(key, entry);
  };

  return {
    settling(payer, nonce) {
      sweep();
      const key = keyOf(payer, nonce);
      const entry = entries.get(key) ?? { hash: null, calls: 0, endedAt: null };
      entry.calls += 1;
      entry.endedAt = null;
      entries.set(key, entry);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        entry.calls -= 1;
        if (entry.calls === 0 && entries.get(key) === entry) ended(key, entry);
      };
    },
    broadcast(payer, nonce, hash) {
      const key = keyOf(payer, nonce);
      const entry = entries.get(key);
      if (entry !== undefined) {
        entry.hash = hash;
        return;
      }
      // Sent outside a settlement call this log saw: held for the window all the same.
      const stray: Entry = { hash, calls: 0, endedAt: null };
      ended(key, stray);
    },
    of(payer, nonce) {
      const entry = entries.get(keyOf(payer, nonce));
      if (entry === undefined) return undefined;
      if (entry.endedAt !== null && entry.endedAt <= now() - keptMs) return undefined;
      return entry.hash;
    },
    size: () => entries.size,
  };
}
