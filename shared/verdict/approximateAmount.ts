import { formatUnits } from "viem";
import type { Balance } from "../api/report";

const baseUnits = /^\d+$/;

/**
 * Rounds an amount to `significantDigits` significant digits, never dropping integer digits.
 * @example approximateAmount({ raw: "21004200000000", decimals: 18, formatted: "0.0000210042", symbol: "ETH" }) // "0.000021"
 */
export function approximateAmount(balance: Balance, significantDigits = 2): string {
  // An amount that is not base units cannot be rounded safely; show it as it came.
  if (!baseUnits.test(balance.raw)) return balance.formatted;
  const raw = BigInt(balance.raw);
  if (raw === 0n) return "0";
  const digits = raw.toString().length;
  const integerDigits = Math.max(0, digits - balance.decimals);
  const keep = Math.max(significantDigits, integerDigits);
  if (digits <= keep) return formatUnits(raw, balance.decimals);
  const scale = 10n ** BigInt(digits - keep);
  const rounded = ((raw + scale / 2n) / scale) * scale;
  return formatUnits(rounded, balance.decimals);
}
