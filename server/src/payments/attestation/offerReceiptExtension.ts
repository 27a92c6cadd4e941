import type { HTTPTransportContext } from "@x402/core/server";
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

/** The payment headers x402 clients send (v2, then v1). */
const paymentHeaders = ["payment-signature", "x-payment"];

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
    // x402 core builds a PaymentRequired for every paid request too, only to check the payment
    // against it, and sends it only with an error: signing an offer per accepted scheme there
    // cost every paid request two ES256 signatures nobody reads. Its entry is the echo check's
    // shape without them (offers are a dynamic field, left out of that check). Every 402 that is
    // sent (no payment, or a payment refused, which core builds again with its error) still
    // carries its signed offers.
    enrichPaymentRequiredResponse: (declaration, context) =>
      context.error === undefined && carriesPayment(context.transportContext)
        ? Promise.resolve({ info: { offers: [] } })
        : (official.enrichPaymentRequiredResponse?.(declaration, context) ??
          Promise.resolve(undefined)),
    // x402 core hands the settlement hook the route's extensions after the 402 enrichment
    // wrote the offers over them, so the route's declaration (includeTxHash) is lost by then.
    enrichSettlementResponse: (_declaration, context) =>
      official.enrichSettlementResponse?.(offerReceiptDeclaration, context) ??
      Promise.resolve(undefined),
  };
}

function carriesPayment(transportContext: unknown): boolean {
  const adapter = (transportContext as HTTPTransportContext | undefined)?.request?.adapter;
  return adapter !== undefined && paymentHeaders.some((name) => adapter.getHeader(name));
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
