/**
 * How many sent-to addresses each page may still report. A page can fake sends through its own
 * provider; a fixed quota per tab and site keeps one page from flooding the list and pushing
 * out the addresses the person really used.
 * @example const quota = createSendQuota(20); const accepted = quota.take("7 https://dapp.example", addresses)
 */
export function createSendQuota(perPage: number) {
  const used = new Map<string, number>();
  return {
    /** The part of `addresses` that still fits in the quota of `page`, counted against it. */
    take<T>(page: string, addresses: readonly T[]): T[] {
      const count = used.get(page) ?? 0;
      const accepted = addresses.slice(0, Math.max(0, perPage - count));
      used.set(page, count + accepted.length);
      return accepted;
    },
  };
}
