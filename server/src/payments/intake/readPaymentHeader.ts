import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type ChannelPayment, channelPaymentOf } from "../channels/channelPaymentOf";
import { authorizationOf, type PaidAuthorization } from "./authorizationOf";

/** What a payment header pays with: an EIP-3009 authorization (`exact`) or a channel payment. */
export type PaymentHeader =
  | { kind: "exact"; payload: PaymentPayload; authorization: PaidAuthorization }
  | { kind: "channel"; payload: PaymentPayload; channel: ChannelPayment };

/**
 * A PAYMENT-SIGNATURE (or X-Payment) value decoded once as x402 v2 encodes it, and what it pays
 * with: the `exact` scheme's EIP-3009 authorization, or a batch-settlement deposit or voucher.
 * null for anything else (not base64 JSON, neither shape): such a header pays for nothing.
 * @example const payment = readPaymentHeader(c.req.header("payment-signature"));
 */
export function readPaymentHeader(header: string | null | undefined): PaymentHeader | null {
  if (!header) return null;
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  if (decoded === null || typeof decoded !== "object") return null;
  const payload = decoded as PaymentPayload;
  const authorization = authorizationOf(payload);
  if (authorization !== null) {
    return claims(payload, "exact") && signed(payload)
      ? { kind: "exact", payload, authorization }
      : null;
  }
  const channel = channelPaymentOf(payload);
  return channel !== null && claims(payload, "batch-settlement")
    ? { kind: "channel", payload, channel }
    : null;
}

/**
 * Whether the scheme the payload says it pays (`accepted.scheme`) is the one its shape pays with.
 * The official facilitator hands the payload to the scheme it names and takes the shape for
 * granted: a voucher named `exact` makes it throw, which reads as a facilitator that did not
 * answer (a 503 asking for a retry) instead of a refused payment. Without `accepted` the official
 * middleware refuses it itself (no matching requirements).
 */
function claims(payload: PaymentPayload, scheme: string): boolean {
  const claimed = (payload.accepted as { scheme?: unknown } | null | undefined)?.scheme;
  return claimed === undefined || claimed === scheme;
}

/** An EIP-3009 payment carries its signature as text; anything else makes the facilitator throw. */
function signed(payload: PaymentPayload): boolean {
  return typeof (payload.payload as { signature?: unknown }).signature === "string";
}
