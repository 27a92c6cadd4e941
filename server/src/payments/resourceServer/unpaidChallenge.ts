import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { x402HTTPResourceServer } from "@x402/core/server";
import type { PaymentRequired } from "@x402/core/types";
import { HonoAdapter } from "@x402/hono";
import type { Context } from "hono";

/** What a request may carry that would make the official server verify instead of challenge. */
const credentialHeaders = ["payment-signature", "x-payment", "sign-in-with-x"];

/** The route's challenge for this request, as if it carried no payment; null if there is none. */
export type UnpaidChallenge = (c: Context) => Promise<PaymentRequired | null>;

/**
 * The challenge the official HTTP resource server answers this request with when it carries no
 * payment: the same accepts and every extension of the first 402 (attestation, bazaar, signed
 * offers, payment-identifier), freshly enriched. Used once a settlement failed, when core's own
 * answer is a bare 402 with only PAYMENT-RESPONSE. The payment headers are dropped from the
 * request first; it is finished by then.
 * @example const challenge = await unpaidChallenge(httpServer)(c);
 */
export function unpaidChallenge(httpServer: x402HTTPResourceServer): UnpaidChallenge {
  return async (c) => {
    for (const name of credentialHeaders) c.req.raw.headers.delete(name);
    const result = await httpServer.processHTTPRequest({
      adapter: new HonoAdapter(c),
      path: c.req.path,
      method: c.req.method,
    });
    if (result.type !== "payment-error") return null;
    const header = Object.entries(result.response.headers).find(
      ([name]) => name.toLowerCase() === "payment-required",
    )?.[1];
    return header === undefined ? null : decodePaymentRequiredHeader(header);
  };
}
