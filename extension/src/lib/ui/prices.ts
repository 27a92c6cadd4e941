/**
 * USDC base units (6 decimals) as dollars, e.g. 10000 -> "$0.01".
 * @example formatUsdc(50_000n) // "$0.05"
 */
export function formatUsdc(units: bigint | string): string {
  const value = BigInt(units);
  const whole = value / 1_000_000n;
  const cents = (value % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `$${whole}.${cents}`;
}
