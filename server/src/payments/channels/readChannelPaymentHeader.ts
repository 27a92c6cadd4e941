import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type ChannelPayment, channelPaymentOf } from "./channelPaymentOf";

/**
 * The channel payment (batch-settlement deposit or voucher) a PAYMENT-SIGNATURE or X-Payment
 * value carries, or null for anything else.
 * @example const payment = readChannelPaymentHeader(c.req.header("payment-signature"));
 */
export function readChannelPaymentHeader(header: string | null | undefined): ChannelPayment | null {
  if (!header) return null;
  let payload: unknown;
  try {
    payload = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== "object") return null;
  return channelPaymentOf(payload as PaymentPayload);
}
