import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
} from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import type { MiddlewareHandler } from "hono";
import { attestationExtensionEntry } from "../attestation/attestationExtension";
import { maxTimeoutSeconds, type Payments } from "../createPayments";
import { authorizationOf } from "../facilitator/authorizationOf";
import type { PaidRoute } from "../routes/paidRoutes";
import type { UnpaidChallenge } from "./unpaidChallenge";
import { withRouteDescription } from "./withRouteDescription";

/**
 * A real payment header is ~1 KB plus the extensions the x402 client echoes from the 402
 * (attestation, signed offer, bazaar declaration, payment-identifier, sign-in challenge: about
 * 13.5 KB for /deep once base64-encoded, more with a longer public URL); anything larger is
 * refused before decoding. Node refuses request headers over 16 KB in total, so 1 KB is left for
 * the request's other headers.
 */
export const maxPaymentHeaderBytes = 15 * 1024;

/** Clock skew tolerated on validBefore and validAfter. */
export const authorizationSlackSeconds = 30;

export type PaymentEnvelopeOptions = {
  route: PaidRoute;
  payments: Payments;
  resourceUrl: string;
  /** The route's unpaid challenge, for the 402 that follows a failed settlement. */
  unpaidChallenge?: UnpaidChallenge;
  /** Seconds since epoch (tests move it). */
  clock?: () => number;
};

/**
 * Wraps the official x402 middleware of one paid route. In: accepts the documented `X-Payment`
 * header as `PAYMENT-SIGNATURE` (core reads only the latter) and turns garbage or oversized
 * payment headers, and authorizations valid for longer than the route's maxTimeoutSeconds (or
 * not valid yet), into a 402 with a reason before anything is verified. Out: every 402 also carries the PaymentRequired as
 * JSON in the body (the API contract promises it there), with the contract's extra entry fields.
 * @example createRoute({ middleware: [checkRequestGuard(), paymentEnvelope(opts), x402] })
 */
export function paymentEnvelope(options: PaymentEnvelopeOptions): MiddlewareHandler {
  return async function paymentEnvelope(c, next) {
    const headers = c.req.raw.headers;
    const alias = headers.get("x-payment");
    if (alias !== null && !headers.has("payment-signature"))
      headers.set("payment-signature", alias);
    const header = headers.get("payment-signature");
    let rejected: string | null = null;
    if (header !== null) {
      if (header.length > maxPaymentHeaderBytes) rejected = "payment_header_too_large";
      else {
        const payload = decoded(header);
        if (payload === null) rejected = "invalid_payment_header";
        else rejected = outOfBounds(payload, (options.clock ?? nowSeconds)());
      }
      if (rejected !== null) {
        // Without a payment the official middleware answers the plain challenge; the reason is set below.
        headers.delete("payment-signature");
        headers.delete("x-payment");
      }
    }
    await next();
    if (c.res.status !== 402) return;

    const outgoing = new Headers(c.res.headers);
    const challenge = outgoing.get("payment-required");
    let paymentRequired: PaymentRequired;
    if (challenge !== null) {
      paymentRequired = decodePaymentRequiredHeader(challenge);
      if (rejected !== null) {
        paymentRequired = { ...paymentRequired, error: rejected };
        outgoing.set("PAYMENT-REQUIRED", encodePaymentRequiredHeader(paymentRequired));
      }
    } else {
      // Settlement failed after the handler: core answers 402 with only PAYMENT-RESPONSE. The
      // new challenge is the route's own, every extension included, with the failure as error.
      const error = settlementFailure(outgoing);
      const challenge = await options.unpaidChallenge?.(c);
      paymentRequired = challenge ? { ...challenge, error } : await freshChallenge(options, error);
      outgoing.set("PAYMENT-REQUIRED", encodePaymentRequiredHeader(paymentRequired));
    }
    const body = {
      ...paymentRequired,
      accepts: withRouteDescription(paymentRequired.accepts, options.route),
    };
    outgoing.set("Content-Type", "application/json");
    outgoing.delete("Content-Length");
    // Unset first: Hono's c.res setter would otherwise copy the old headers over the new ones.
    c.res = undefined;
    c.res = new Response(JSON.stringify(body), { status: 402, headers: outgoing });
  };
}

function decoded(header: string): PaymentPayload | null {
  try {
    const payload: unknown = decodePaymentSignatureHeader(header);
    return payload !== null && typeof payload === "object" ? (payload as PaymentPayload) : null;
  } catch {
    return null;
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

// An authorization that outlives the route's timeout could be withheld and settled much later
// by anyone holding it; one not valid yet cannot settle now.
function outOfBounds(payload: PaymentPayload, now: number): string | null {
  const authorization = authorizationOf(payload);
  if (authorization === null) return null;
  if (authorization.validAfter > BigInt(now + authorizationSlackSeconds)) {
    return "authorization_not_yet_valid";
  }
  if (authorization.validBefore > BigInt(now + maxTimeoutSeconds + authorizationSlackSeconds)) {
    return "authorization_valid_too_long";
  }
  return null;
}

function settlementFailure(headers: Headers): string {
  const response = headers.get("payment-response");
  if (response === null) return "settlement_failed";
  try {
    return decodePaymentResponseHeader(response).errorReason ?? "settlement_failed";
  } catch {
    return "settlement_failed";
  }
}

async function freshChallenge(
  options: PaymentEnvelopeOptions,
  error: string,
): Promise<PaymentRequired> {
  return {
    x402Version: 2,
    error,
    resource: {
      url: options.resourceUrl,
      description: options.route.description,
      mimeType: "application/json",
    },
    accepts: await options.payments.requirements(options.route.path),
    extensions: {
      [attestationExtensionKey]: attestationExtensionEntry(options.payments.attestation),
    },
  };
}
