import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { Address } from "viem";

/** x402's refusals of a payer whose USDC on Base does not cover what it signed. */
const insufficientBalanceReasons = new Set([
  "invalid_exact_evm_insufficient_balance",
  "invalid_batch_settlement_evm_insufficient_balance",
]);

/**
 * The sentence a payer reads when the server refused its payment for too little USDC, or null
 * for any other refusal (the refusal keeps x402's code, which callers match on). Only for an answer already proven to have charged nothing (a 402 before
 * settlement): it says so. It names the paying address and what the payment needed (the check's
 * price, or the channel deposit that pays it), because x402's reason code says neither.
 * @example insufficientBalanceMessage("invalid_exact_evm_insufficient_balance", { payer, price: 10_000n })
 */
export function insufficientBalanceMessage(
  reason: string | undefined,
  needed: { payer: Address; price: bigint; deposit?: bigint | null },
): string | null {
  if (reason === undefined || !insufficientBalanceReasons.has(reason)) return null;
  const { payer, price, deposit } = needed;
  const what =
    deposit === undefined || deposit === null
      ? `this check's price of ${formatUsdc(price)}`
      : `the ${formatUsdc(deposit)} payment channel deposit this check of ${formatUsdc(price)} is paid from`;
  const smaller =
    deposit === undefined || deposit === null
      ? ""
      : `, or configure a smaller channel deposit (at least ${formatUsdc(price)})`;
  return `The paying address ${payer} holds too little USDC on Base for ${what}. The server refused the payment before settling it: nothing was charged. Send USDC on Base to ${payer}${smaller}, then check again.`;
}
