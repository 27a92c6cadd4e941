import type { Balance } from "../api/report";

const baseUnits = /^\d+$/;

/**
 * True when the balance is known and above zero; a missing or unreadable amount counts as none.
 * @example isPositiveBalance({ raw: "1", decimals: 6, formatted: "0.000001", symbol: "USDC" }) // true
 */
export function isPositiveBalance(balance: Balance | null | undefined): boolean {
  if (!balance || !baseUnits.test(balance.raw)) return false;
  return BigInt(balance.raw) > 0n;
}
