/**
 * The characters wallets show of an address: its first 6 (0x and 4 hex) and last 4.
 * @example visibleEnds("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913") // "0x8335…2913"
 */
export function visibleEnds(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
