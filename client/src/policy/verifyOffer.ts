import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import {
  extractOffersFromPaymentRequired,
  isJWSSignedOffer,
  verifyOfferSignatureJWS,
} from "@x402/extensions/offer-receipt";
import type { PinRecord } from "../PinStore";

/** How long past its validUntil an offer is still taken (clocks differ a little). */
const offerGraceMs = 60_000;

/**
 * The offer signed with the attestation key must name exactly what is about to be paid: scheme,
 * network, asset, payee and amount, still valid. Null when one does; else why not.
 * @example const problem = await verifyOffer(paymentRequired, requirement, attestationKey, now);
 */
export async function verifyOffer(
  paymentRequired: PaymentRequired,
  requirement: PaymentRequirements,
  key: PinRecord["jwk"],
  now: Date,
): Promise<string | null> {
  const offers = extractOffersFromPaymentRequired(paymentRequired).filter(isJWSSignedOffer);
  if (offers.length === 0) return "The payment challenge carries no signed offer.";
  for (const offer of offers) {
    try {
      const terms = await verifyOfferSignatureJWS(offer, key);
      if (
        terms.scheme === requirement.scheme &&
        terms.network === requirement.network &&
        terms.asset.toLowerCase() === requirement.asset.toLowerCase() &&
        terms.payTo.toLowerCase() === requirement.payTo.toLowerCase() &&
        terms.amount === requirement.amount &&
        (terms.validUntil === undefined || terms.validUntil * 1000 >= now.getTime() - offerGraceMs)
      ) {
        return null;
      }
    } catch {
      // Tried against the next offer; none verifying is the refusal below.
    }
  }
  return "No signed offer in the challenge verifies with the attestation key for these payment terms.";
}
