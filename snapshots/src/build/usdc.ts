import { formatUnits } from "viem";

/**
 * USDC base units (6 decimals) in the documents' human form.
 * @example usdc(1_500_000n) // "1.5"
 */
export function usdc(raw: bigint): string {
  return formatUnits(raw, 6);
}
