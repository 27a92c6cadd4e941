/**
 * USDC base units (6 decimals) as dollars, as people read prices: 100000 -> "$0.10", with every
 * digit a sub-cent amount needs (so no amount is shown rounded). The CLI, the MCP server and the
 * client's own messages state money this one way.
 * @example formatUsdc(routePrices.deep) // "$0.05"
 */
export function formatUsdc(units: bigint | string): string {
  const value = BigInt(units);
  const sign = value < 0n ? "-" : "";
  const magnitude = value < 0n ? -value : value;
  const whole = magnitude / 1_000_000n;
  const fraction = (magnitude % 1_000_000n)
    .toString()
    .padStart(6, "0")
    .replace(/0+$/, "")
    .padEnd(2, "0");
  return `${sign}$${whole}.${fraction}`;
}
