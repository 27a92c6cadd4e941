import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { authorizationOf, type PaidAuthorization } from "./authorizationOf";

export type PaymentHeader = { payload: PaymentPayload; authorization: PaidAuthorization };

/**
 * A PAYMENT-SIGNATURE (or X-Payment) value read as x402 v2 encodes it: the payload and the
 * EIP-3009 authorization it carries. null for anything else (not base64 JSON, no authorization
 * in the exact scheme's shape): such a header pays for nothing.
 * @example const payment = readPaymentHeader(c.req.header("payment-signature"));
 */
export function readPaymentHeader(header: string | null | undefined): PaymentHeader | null {
  if (!header) return null;
  let payload: unknown;
  try {
    payload = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== "object") return null;
  const authorization = authorizationOf(payload as PaymentPayload);
  return authorization === null ? null : { payload: payload as PaymentPayload, authorization };
}
