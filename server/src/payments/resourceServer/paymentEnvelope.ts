import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentRequiredHeader,
} from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { attestationExtensionEntry } from "../attestation/attestationExtension";
import type { PaidRoute } from "../paidRoutes";
import type { UnpaidChallenge } from "./unpaidChallenge";
import { withRouteDescription } from "./withRouteDescription";

export type PaymentEnvelopeOptions = {
  route: PaidRoute;
  /**
   * What the 402 it rebuilds carries: the route's requirements and the attestation. Just these,
   * not the whole composition, so this role imports nothing that runs before it.
   */
  payments: {
    requirements(path: PaidRoute["path"]): Promise<PaymentRequirements[]>;
    attestation: Parameters<typeof attestationExtensionEntry>[0];
  };
  resourceUrl: string;
  /** The route's unpaid challenge, for the 402 that follows a failed settlement. */
  unpaidChallenge?: UnpaidChallenge;
};

/**
 * Wraps the official x402 middleware of one paid route, on the way out: every 402 carries the
 * PaymentRequired as JSON in the body too (the API contract promises it there), with the
 * contract's extra entry fields and, for a payment header paymentIntake set aside, the reason in
 * its `error`; a settlement that failed after the handler gets a fresh challenge.
 * @example createRoute({ middleware: [checkRequestGuard(), paymentIntake(), ledger, paymentEnvelope(opts), x402] })
 */
export function paymentEnvelope(options: PaymentEnvelopeOptions): MiddlewareHandler<AppEnv> {
  return async function paymentEnvelope(c, next) {
    // Set aside by paymentIntake: the official middleware answered the plain challenge.
    const rejected = c.get("paymentRejection") ?? null;
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
