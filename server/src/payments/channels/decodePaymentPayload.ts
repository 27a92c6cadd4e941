import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";

let last: { header: string; payload: PaymentPayload | null } | null = null;

/**
 * The x402 payment payload of a PAYMENT-SIGNATURE value (null when it is none), decoded once per
 * header: a channel payment's header (about 10 KB of base64 with the extensions the client
 * echoes) is read by the intake and again by the channel ledger, one after the other in the same
 * request, and each decode costs a base64 check, a decode and a JSON parse. Only the last header
 * is kept; its payload is shared, so callers only read it.
 * @example const payload = decodePaymentPayload(c.req.header("payment-signature") ?? "");
 */
export function decodePaymentPayload(header: string): PaymentPayload | null {
  if (last?.header === header) return last.payload;
  let payload: PaymentPayload | null;
  try {
    payload = decodePaymentSignatureHeader(header);
  } catch {
    payload = null;
  }
  last = { header, payload };
  return payload;
}
