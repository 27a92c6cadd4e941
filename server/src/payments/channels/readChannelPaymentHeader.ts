import type { PaymentPayload } from "@x402/core/types";
import { type ChannelPayment, channelPaymentOf } from "./channelPaymentOf";
import { decodePaymentPayload } from "./decodePaymentPayload";

/**
 * The channel payment (batch-settlement deposit or voucher) a PAYMENT-SIGNATURE or X-Payment
 * value carries, or null for anything else.
 * @example const payment = readChannelPaymentHeader(c.req.header("payment-signature"));
 */
export function readChannelPaymentHeader(header: string | null | undefined): ChannelPayment | null {
  if (!header) return null;
  const payload: unknown = decodePaymentPayload(header);
  if (payload === null || typeof payload !== "object") return null;
  return channelPaymentOf(payload as PaymentPayload);
}
