import type { Context } from "hono";
import { requestHeader } from "../../http/requestHeader";
import { type PaymentHeader, readPaymentHeader } from "./readPaymentHeader";

/**
 * A real payment header is ~1 KB plus the extensions the x402 client echoes from the 402
 * (attestation, signed offer, bazaar declaration, payment-identifier, sign-in challenge: about
 * 13.5 KB for /deep once base64-encoded, more with a longer public URL); anything larger is
 * refused before decoding. Node refuses request headers over 16 KB in total, so 1 KB is left for
 * the request's other headers.
 */
export const maxPaymentHeaderBytes = 15 * 1024;

/** A request's payment header and what it pays with (`too_large`: refused before decoding). */
export type PaymentHeaderReading = {
  header: string;
  payment: PaymentHeader | "too_large" | null;
};

/** Readings kept per request: Hono hands every middleware of one request the same Context. */
const readings = new WeakMap<Context, PaymentHeaderReading | null>();

/**
 * The request's payment header (`PAYMENT-SIGNATURE`, else the documented `X-Payment`), decoded
 * once per request: the first to ask (the challenge rate limit, else the intake) reads it, and
 * later askers get that same reading. null without a header.
 * @example const reading = paymentHeaderOf(c); const paying = reading?.payment?.kind === "exact";
 */
export function paymentHeaderOf(c: Context): PaymentHeaderReading | null {
  const kept = readings.get(c);
  if (kept !== undefined) return kept;
  const header = requestHeader(c, "payment-signature") ?? requestHeader(c, "x-payment");
  const reading: PaymentHeaderReading | null =
    header === undefined
      ? null
      : {
          header,
          payment: header.length > maxPaymentHeaderBytes ? "too_large" : readPaymentHeader(header),
        };
  readings.set(c, reading);
  return reading;
}
