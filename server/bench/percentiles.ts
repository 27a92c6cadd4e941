/** The p-th percentile (0-100) of a list of numbers, nearest-rank method. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/**
 * Times several runs in turn, one of each per round in a rotating order (after `warmup` untimed
 * rounds), so a noisy moment on a shared machine lands on all of them rather than on one block;
 * milliseconds per run, by name.
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
    // Each round starts one further along: no run always follows the same one (a run after a
    // heavy one can find the machine still busy, or idle).
    const order = names.map((_, offset) => names[(index + offset) % names.length] as Name);
    for (const name of order) {
      const started = performance.now();
      await runs[name](index);
      if (index >= warmup) samples[name].push(performance.now() - started);
    }
  }
  return samples;
}
