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
  if (authorization !== null) return { kind: "exact", payload, authorization };
  const channel = channelPaymentOf(payload);
  return channel === null ? null : { kind: "channel", payload, channel };
}
