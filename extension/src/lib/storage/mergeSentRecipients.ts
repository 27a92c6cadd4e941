import type { SentRecipient } from "./schemas";

/** How many sent-to addresses each site may hold, and how many are kept in all. */
export const sentRecipientLimits = { perSite: 20, total: 1_000 } as const;

/**
 * The sent-to list with `fresh` entries reported by `site` added (newest first, one entry per
 * address). A page can forge sends through its own provider, so what it reports may only add
 * warnings, never remove one: a site that reports more than its share pushes out its own oldest
 * entries, never another site's, and a full list takes no more (it never evicts).
 * @example mergeSentRecipients(list, [{ address, at }], "app.example")
 */
export function mergeSentRecipients(
  list: readonly SentRecipient[],
  fresh: readonly Omit<SentRecipient, "site">[],
  site: string,
  limits: { perSite: number; total: number } = sentRecipientLimits,
): SentRecipient[] {
  const known = new Set(list.map((entry) => entry.address.toLowerCase()));
  const added: SentRecipient[] = [];
  for (const entry of fresh) {
    const key = entry.address.toLowerCase();
    if (known.has(key)) continue;
    known.add(key);
    added.push({ ...entry, site });
  }
  // This site's own entries, newest first, beyond its share are dropped; others stay.
  const ownKept = new Set(
    [...added, ...list.filter((entry) => entry.site === site)].slice(0, limits.perSite),
  );
  let merged = [...added, ...list].filter((entry) => entry.site !== site || ownKept.has(entry));
  // Full: the entries already kept win over the new ones.
  const overflow = merged.length - limits.total;
  if (overflow > 0) {
    const dropped = new Set(added.slice(-overflow));
    merged = merged.filter((entry) => !dropped.has(entry));
  }
  return merged;
}
