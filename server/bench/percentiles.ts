/** The p-th percentile (0-100) of a list of numbers, nearest-rank method. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * Times several runs in turn, one of each per round (after `warmup` untimed rounds), so a noisy
 * moment on a shared machine lands on all of them rather than on one block; milliseconds per
 * run, by name.
 * @example const { raw, check } = await timeInterleaved({ raw, check }, { count: 100 });
 */
export async function timeInterleaved<Name extends string>(
  runs: Record<Name, (index: number) => Promise<unknown>>,
  options: { count: number; warmup?: number },
): Promise<Record<Name, number[]>> {
  const names = Object.keys(runs) as Name[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  const warmup = options.warmup ?? 5;
  for (let index = 0; index < warmup + options.count; index++) {
    for (const name of names) {
      const started = performance.now();
      await runs[name](index);
      if (index >= warmup) samples[name].push(performance.now() - started);
    }
  }
  return samples;
}
