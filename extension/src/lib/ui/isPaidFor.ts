import type { CheckOutcome } from "../messaging/protocol";

/**
 * A verdict was paid for, or a payment may have been charged: from then on no paid button is
 * the invitation (they fold under "Check again (pays again)").
 * @example isPaidFor({ type: "failed", message: "", charged: "unknown" }) // true
 */
export function isPaidFor(outcome: CheckOutcome | null): boolean {
  if (!outcome) return false;
  if (outcome.type === "report") return true;
  return (outcome.type === "failed" || outcome.type === "forged") && outcome.charged !== false;
}
