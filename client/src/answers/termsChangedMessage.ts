import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * When a 402 refused a payment because the server's terms changed after its offer (its operator
 * changed the price or payTo between the challenge and the payment, say), what to tell the
 * payer: nothing charged, what the terms are now, check again. Null when the new challenge still
 * offers the terms that were paid (a refusal for another reason), or names none.
 * @example const message = termsChangedMessage(answer, requirement);
 */
export function termsChangedMessage(answer: Response, paid: PaymentRequirements): string | null {
  const header = answer.status === 402 ? answer.headers.get("payment-required") : null;
  if (header === null) return null;
  let accepts: PaymentRequirements[];
  try {
    accepts = decodePaymentRequiredHeader(header).accepts;
  } catch {
    return null;
  }
  const ofScheme = accepts.filter((offer) => offer.scheme === paid.scheme);
  const now = ofScheme[0];
  if (now === undefined) {
    return `The server stopped offering the ${paid.scheme} payment this check was signed for: nothing was charged. Check again to pay as it now asks.`;
  }
  const stillOffered = ofScheme.some(
    (offer) =>
      offer.network === paid.network &&
      same(offer.asset, paid.asset) &&
      same(offer.payTo, paid.payTo) &&
      offer.amount === paid.amount,
  );
  if (stillOffered) return null;
  const changes = [
    ...(now.amount !== paid.amount && /^\d+$/.test(now.amount)
      ? [`the price is now ${formatUsdc(now.amount)}, not ${formatUsdc(paid.amount)}`]
      : []),
    ...(!same(now.payTo, paid.payTo) ? [`it now pays ${now.payTo}, not ${paid.payTo}`] : []),
    ...(now.network !== paid.network || !same(now.asset, paid.asset)
      ? [`it now takes ${now.asset} on ${now.network}`]
      : []),
  ];
  return `The server's terms changed after its offer${changes.length > 0 ? ` (${changes.join("; ")})` : ""}: this payment was refused and nothing was charged. Check again to see and pay the current terms.`;
}
