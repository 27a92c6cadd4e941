import { createHash } from "node:crypto";
import { CheckRequestSchema } from "@presend/shared/api/report";
import type { PaymentPayload } from "@x402/core/types";
import { extractPaymentIdentifier } from "@x402/extensions/payment-identifier";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import type { ChannelPayment } from "../channels/channelPaymentOf";
import { maxTimeoutSeconds } from "../paymentTerms";
import type { PaidAuthorization } from "./authorizationOf";
import { type PaymentHeaderReading, paymentHeaderOf } from "./paymentHeaderOf";

/** Clock skew tolerated on validBefore and validAfter. */
export const authorizationSlackSeconds = 30;

/** The payment a paid request carries, read once: every later step takes it from here. */
export type PaymentIntake = {
  authorization: PaidAuthorization;
  /** The x402 payment-identifier, validated by the official extension, if the payer sent one. */
  paymentId: string | null;
  /** What was asked (route, address as sent, chain): a reused payment id must ask the same. */
  requestHash: string;
};

/** A payment over a batch-settlement channel, read once: the channel ledger takes it from here. */
export type ChannelPaymentIntake = {
  channel: ChannelPayment;
  /** The x402 payment-identifier, validated by the official extension, if the payer sent one. */
  paymentId: string | null;
};

/** Why a payment header was set aside; the 402 says so in its `error`. */
export type PaymentRejection =
  | "payment_header_too_large"
  | "invalid_payment_header"
  | "unsupported_x402_version"
  | "authorization_not_yet_valid"
  | "authorization_valid_too_long";

export type PaymentIntakeOptions = {
  /** Seconds since epoch (tests move it). */
  clock?: () => number;
};

/**
 * The one reading of a paid request's payment, first in its middleware: takes the documented
 * `X-Payment` as `PAYMENT-SIGNATURE` (the official middleware reads only the latter), decodes it
 * once (the authorization, the payment id, the request hash) into the context as `payment`, or
 * a batch-settlement deposit or voucher with its payment id as `channelPayment`, and sets aside
 * a header that is oversized, not an x402 payment, of another x402 version than 2, valid for
 * longer than maxTimeoutSeconds or not valid yet: it is removed, so the official middleware
 * answers the plain challenge, and `paymentRejection` says why for the 402.
 * @example createRoute({ middleware: [checkRequestGuard(), paymentIntake(), signedReport(sign), ledger, envelope, x402] })
 */
export function paymentIntake(options: PaymentIntakeOptions = {}): MiddlewareHandler<AppEnv> {
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  return async function paymentIntake(c, next) {
    const headers = c.req.raw.headers;
    const alias = headers.get("x-payment");
    if (alias !== null && !headers.has("payment-signature")) {
      headers.set("payment-signature", alias);
    }
    const reading = paymentHeaderOf(c);
    if (reading === null) return next();
    const { payment } = reading;
    const setAside = (rejection: PaymentRejection) => {
      headers.delete("payment-signature");
      headers.delete("x-payment");
      c.set("paymentRejection", rejection);
      return next();
    };
    if (payment !== "too_large" && payment !== null) {
      // Version 2 is the only one this server speaks. The official middleware would refuse most
      // other payloads (no matching requirements), but it hands a version 1 payload that names
      // `accepted` terms to the facilitator, which has no version 1 scheme and throws: a 503
      // asking the payer to retry a payment that can never pass.
      if (payment.payload.x402Version !== 2) return setAside("unsupported_x402_version");
      if (payment.kind === "channel") {
        // A batch-settlement deposit or voucher: the channel ledger keeps its books, further on.
        c.set("channelPayment", {
          channel: payment.channel,
          paymentId: paymentIdOf(payment.payload),
        });
        return next();
      }
    }
    const intake = await read(c, payment, clock());
    if (typeof intake === "string") return setAside(intake);
    c.set("payment", intake);
    return next();
  };
}

async function read(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
  payment: Exclude<PaymentHeaderReading["payment"], { kind: "channel" }>,
  now: number,
): Promise<PaymentIntake | PaymentRejection> {
  if (payment === "too_large") return "payment_header_too_large";
  if (payment === null) return "invalid_payment_header";
  const { authorization } = payment;
  // An authorization that outlives the route's timeout could be withheld and settled much later
  // by anyone holding it; one not valid yet cannot settle now.
  if (authorization.validAfter > BigInt(now + authorizationSlackSeconds)) {
    return "authorization_not_yet_valid";
  }
  if (authorization.validBefore > BigInt(now + maxTimeoutSeconds + authorizationSlackSeconds)) {
    return "authorization_valid_too_long";
  }
  const paymentId = paymentIdOf(payment.payload);
  // The guard parsed the body already; Hono hands back that same object.
  const body: unknown = await c.req.json().catch(() => null);
  return { authorization, paymentId, requestHash: requestHashOf(c.req.path, body) };
}

/** The x402 payment-identifier the payer sent (validated by the official extension), if any. */
function paymentIdOf(payload: PaymentPayload): string | null {
  try {
    return extractPaymentIdentifier(payload, true);
  } catch {
    return null;
  }
}

/**
 * What a paid request asks for: route, address (as sent, trimmed: its case shows in the report),
 * chain (default base) and sender (`from`, trimmed, any case: the report shows it checksummed),
 * so `{"address": a}` and `{"address": a, "chain": "base"}` ask the same. The sender decides the
 * verdict (a lookalike of an address it paid is danger), so a payment id that paid without one,
 * or with another, must not answer this request with that report. A request without a sender
 * hashes as before senders existed, so the records of those requests still match it.
 */
function requestHashOf(path: string, body: unknown): string {
  const request = CheckRequestSchema.safeParse(body);
  const sender = request.success ? request.data.from?.trim().toLowerCase() : undefined;
  const asked = request.success
    ? [request.data.address.trim(), request.data.chain, ...(sender ? [sender] : [])]
    : [JSON.stringify(body)];
  return createHash("sha256")
    .update(JSON.stringify([path, ...asked]))
    .digest("hex");
}
