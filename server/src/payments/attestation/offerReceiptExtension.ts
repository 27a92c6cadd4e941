import type { ResourceServerExtension } from "@x402/core/types";
import {
  createJWSOfferReceiptIssuer,
  createOfferReceiptExtension,
  type JWSSigner,
  OFFER_RECEIPT,
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

/** The PAYMENT-RESPONSE extensions of a settlement answered again from its record. */
export type SettlementReceipt = (settlement: {
  resourceUrl: string;
  payer: string;
  network: string;
  transaction: string;
}) => Promise<Record<string, unknown>>;

/**
 * Signs the same offer-receipt the official extension puts in a live settlement, for a report
 * answered from its payment record (a retry with its payment id, or a lost facilitator answer).
 * @example const receipt = settlementReceipt(signer); await receipt({ resourceUrl, payer, network, transaction });
 */
export function settlementReceipt(signer: JWSSigner): SettlementReceipt {
  const official = createOfferReceiptExtension(createJWSOfferReceiptIssuer(signer.kid, signer));
  return async ({ resourceUrl, payer, network, transaction }) => {
    const receipt = await official.enrichSettlementResponse?.(offerReceiptDeclaration, {
      result: { success: true, payer, network, transaction },
      transportContext: { request: { adapter: { getUrl: () => resourceUrl } } },
    } as never);
    return receipt === undefined ? {} : { [OFFER_RECEIPT]: receipt };
  };
}
