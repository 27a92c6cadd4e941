import type { ChainName } from "@presend/shared/chains/chains";

/** How far back history is read by default: about six months. */
export const defaultHistoryWindowDays = 180;

/**
 * Average seconds per block of each chain, to turn the window in days into blocks. Rounded:
 * the window is a bound on what an endpoint is asked, not an exact date.
 */
export const secondsPerBlock: Record<ChainName, number> = {
  base: 2,
  ethereum: 12,
  arbitrum: 0.25,
  optimism: 2,
  polygon: 2,
};

/**
 * The default history window of a chain, in blocks.
 * @example defaultWindowBlocks("ethereum") // 1_296_000 (180 days of 12-second blocks)
 */
export function defaultWindowBlocks(chain: ChainName): number {
  return Math.round((defaultHistoryWindowDays * 86_400) / secondsPerBlock[chain]);
}
