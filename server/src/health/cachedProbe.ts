/**
 * Wraps a probe so that callers within `ttlMs` of the last reading share it, and callers while
 * a reading is under way wait for that one: however many ask, the chains are read at most once
 * per `ttlMs`. A failed reading is not kept.
 * @example const probe = cachedProbe(() => probeChains({ rpcUrls }), 5_000);
 */
export function cachedProbe<T>(
  probe: () => Promise<T>,
  ttlMs: number,
  clock: () => number = Date.now,
): () => Promise<T> {
  let reading: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = clock();
    if (reading !== null && now - reading.at < ttlMs) return reading.value;
    const value = probe();
    const current = { at: now, value };
    reading = current;
    value.catch(() => {
      if (reading === current) reading = null;
    });
    return value;
  };
}
