/** The p-th percentile (0-100) of a list of numbers, nearest-rank method. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Times `run` `count` times in sequence (after `warmup` untimed runs); milliseconds per run. */
export async function timeRuns(
  run: (index: number) => Promise<unknown>,
  options: { count: number; warmup?: number },
): Promise<number[]> {
  for (let index = 0; index < (options.warmup ?? 5); index++) await run(index);
  const samples: number[] = [];
  for (let index = 0; index < options.count; index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  return samples;
}
