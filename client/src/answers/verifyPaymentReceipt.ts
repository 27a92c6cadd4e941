import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import {
  extractReceiptFromResponse,
  isJWSSignedReceipt,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import type { Settlement } from "../PresendResult";

/**
 * The offer-receipt receipt in PAYMENT-RESPONSE, signed with the attestation key (the one the
 * report verified with), must name this settlement (payer, network, transaction): "verified", or why not.
 * @example if ((await verifyPaymentReceipt(answer, settlement, pin.jwk)) !== "verified") ...
 */
export async function verifyPaymentReceipt(
  answer: Response,
  settlement: Settlement,
  key: AttestationKey,
): Promise<"verified" | string> {
  const receipt = extractReceiptFromResponse(answer);
  if (receipt === undefined || !isJWSSignedReceipt(receipt)) {
    return "The payment response carries no signed receipt.";
  }
  try {
    const terms = await verifyReceiptSignatureJWS(receipt, key);
    if (
      terms.payer.toLowerCase() !== settlement.payer.toLowerCase() ||
      terms.network !== settlement.network ||
      (terms.transaction ?? "").toLowerCase() !== settlement.transaction.toLowerCase()
    ) {
      return "The signed receipt names another payment than the settlement.";
    }
    return "verified";
  } catch {
    return "The receipt's signature does not verify with the pinned attestation key.";
  }
}
