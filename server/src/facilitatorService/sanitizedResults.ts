import type { SettleResponse, VerifyResponse } from "@x402/core/types";

// x402 reasons are snake_case codes; anything else is upstream text and is not passed on.
const reasonPattern = /^[a-z][a-z0-9_]{0,63}$/;

function stableReason(reason: string | undefined, fallback: string): string {
  return reason !== undefined && reasonPattern.test(reason) ? reason : fallback;
}

/**
 * A settlement result as the facilitator service answers it: the reason a stable x402 code
 * (`settlement_failed` when the scheme gave none or gave text), the message a short sentence
 * naming it. The upstream message (a viem error: RPC URLs, raw transactions, ~1 KB) stays in the
 * operator's log.
 * @example return c.json(sanitizedSettlement(await facilitator.settle(payload, requirements)));
 */
export function sanitizedSettlement(result: SettleResponse): SettleResponse {
  const { errorMessage: _upstream, ...rest } = result;
  if (result.success) return rest;
  const errorReason = stableReason(result.errorReason, "settlement_failed");
  return {
    ...rest,
    errorReason,
    errorMessage: `The settlement did not complete (${errorReason}).`,
  };
}

/**
 * A verification result as the facilitator service answers it: like `sanitizedSettlement`, the
 * invalid reason a stable code and the message a short sentence naming it.
 * @example return c.json(sanitizedVerification(await facilitator.verify(payload, requirements)));
 */
export function sanitizedVerification(result: VerifyResponse): VerifyResponse {
  const { invalidMessage: _upstream, ...rest } = result;
  if (result.isValid) return rest;
  const invalidReason = stableReason(result.invalidReason, "invalid_payment");
  return {
    ...rest,
    invalidReason,
    invalidMessage: `The payment was not accepted (${invalidReason}).`,
  };
}
