import type { Address } from "viem";
import type { HistoryEntry, SentRecipient } from "./schemas";

/**
 * The addresses the person used before (checked or sent to), deduplicated, newest first: the
 * reference list of the lookalike warning.
 * @example knownAddresses(historyEntries, sentRecipients)
 */
export function knownAddresses(
  history: readonly HistoryEntry[],
  sent: readonly SentRecipient[],
): Address[] {
  const seen = new Set<string>();
  const result: Address[] = [];
  for (const address of [...sent.map((s) => s.address), ...history.map((h) => h.address)]) {
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(address);
  }
  return result;
}
