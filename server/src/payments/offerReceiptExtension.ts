import type { ResourceServerExtension } from "@x402/core/types";
import {
  createJWSOfferReceiptIssuer,
  createOfferReceiptExtension,
  type JWSSigner,
  type OfferReceiptDeclaration,
} from "@x402/extensions/offer-receipt";

/** Receipts name the settlement transaction: presend's receipts exist to be verified. */
export const offerReceiptDeclaration: OfferReceiptDeclaration = { includeTxHash: true };

/**
 * The official offer-receipt extension signed with the attestation key (ES256, kid as the
 * attestation's): a signed offer for every accepted payment in each 402, a signed receipt in
 * every successful PAYMENT-RESPONSE. Routes opt in with declareOfferReceiptExtension.
 * @example resourceServer.registerExtension(offerReceiptExtension(signer));
 */
export function offerReceiptExtension(signer: JWSSigner): ResourceServerExtension {
  const official = createOfferReceiptExtension(createJWSOfferReceiptIssuer(signer.kid, signer));
  return {
    ...official,
    // x402 core hands the settlement hook the route's extensions after the 402 enrichment
    // wrote the offers over them, so the route's declaration (includeTxHash) is lost by then.
    enrichSettlementResponse: (_declaration, context) =>
      official.enrichSettlementResponse?.(offerReceiptDeclaration, context) ??
      Promise.resolve(undefined),
  };
}
