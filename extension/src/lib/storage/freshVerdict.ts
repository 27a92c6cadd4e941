import type { ChainName } from "@presend/shared/chains/chains";
import type { HistoryEntry } from "./schemas";

/** How long a paid verdict is shown again for its address and chain without paying again. */
export const verdictFreshMs = 10 * 60_000;

/**
 * The newest paid verdict for `address` on `chain` still within the freshness window, else null:
 * what a badge (after a reload, in another tab) and the popup show again, with its age, instead
 * of offering to pay for the same answer.
 * @example freshVerdict(history, "0xd8dA…6045", "base", Date.now())
 */
export function freshVerdict(
  history: readonly HistoryEntry[],
  address: string,
  chain: ChainName,
  now: number,
): HistoryEntry | null {
  const wanted = address.toLowerCase();
  let newest: HistoryEntry | null = null;
  for (const entry of history) {
    if (entry.address.toLowerCase() !== wanted || entry.chain !== chain) continue;
    const age = now - Date.parse(entry.checkedAt);
    if (!(age >= 0 && age <= verdictFreshMs)) continue;
    if (!newest || Date.parse(entry.checkedAt) > Date.parse(newest.checkedAt)) newest = entry;
  }
  return newest;
}
