import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import {
  decodePaymentRequiredHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
} from "@x402/core/http";
import type { RoutesConfig } from "@x402/core/server";
import { isBatchSettlementRefundPayload } from "@x402/evm";
import type { ChannelStorage } from "@x402/evm/batch-settlement/server";
import type { MiddlewareHandler } from "hono";
import type { App } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import type { PaidPath } from "../paidRoutes";
import { paymentRequired, paymentResponse } from "../routes/paymentHeaders";
import type { Channels } from "./createChannels";

/**
 * The x402 route config of the cooperative refund: `@x402/evm`'s client asks for it with a GET on
 * the paid route (a 402 naming the channel terms), then sends a zero-charge refund voucher on a
 * second GET. Only `batch-settlement` is accepted there.
 * @example Object.assign(routes, channelRefundRouteConfig(channels, paths, amountOf, publicUrl));
 */
export function channelRefundRouteConfig(
  channels: Channels,
  paths: readonly PaidPath[],
  amountOf: (path: PaidPath) => string,
  maxTimeoutSeconds: number,
  publicUrl: string,
): RoutesConfig {
  // HEAD answers what GET answers, without the body (RFC 9110): the 402 with the terms. The
  // official middleware matches routes by method, so HEAD is named too; it never refunds
  // (dropUnreadablePayment drops its payment header).
  return Object.fromEntries(
    paths.flatMap((path) => {
      const terms = {
        accepts: channels.option(amountOf(path), maxTimeoutSeconds),
        resource: `${publicUrl}${path}`,
        description:
          "Cooperative refund of a batch-settlement channel (GET with a refund voucher).",
        mimeType: "application/json",
      };
      return [
        [`GET ${path}`, terms],
        [`HEAD ${path}`, terms],
      ];
    }),
  );
}

const ChannelRefundSchema = z
  .object({
    message: z.string().openapi({ example: "Refund acknowledged" }),
    channelId: z.string().openapi({ description: "The refunded channel (bytes32)" }),
  })
  .openapi("ChannelRefund");

/** The OpenAPI operation of GET on a paid route: a channel's cooperative refund, free. */
function refundRoute(path: PaidPath, x402: MiddlewareHandler, store: ChannelStorage) {
  const error = (description: string) => ({
    description,
    content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
  });
  return createRoute({
    method: "get",
    path,
    tags: ["verification"],
    summary: `Refund a payment channel (the channel of POST ${path})`,
    description: `Cooperative refund of an x402 batch-settlement channel, as @x402/evm's client asks for it (BatchSettlementEvmScheme.refund). Without PAYMENT-SIGNATURE the answer is a 402 naming the channel terms (batch-settlement only, at POST ${path}'s price). With a zero-charge refund voucher signed by the channel's voucher signer, the server claims what the channel was charged and sends the rest of the deposit back to the payer on Base: 200, PAYMENT-RESPONSE names the refund transaction and the amount sent back. Costs nothing; a check is POST ${path}.`,
    // The refund voucher's signature is the authority; nothing is paid here.
    security: [],
    middleware: [dropUnreadablePayment, refuseRefundOfUnknownChannel(store), x402] as const,
    request: {
      headers: z.object({
        "payment-signature": z.string().optional().openapi({
          description:
            "x402 PaymentPayload (base64 JSON) carrying a batch-settlement refund voucher (zero charge).",
        }),
      }),
    },
    responses: {
      200: {
        description:
          "Refund settled: PAYMENT-RESPONSE (base64 JSON) names the refund transaction, the channel and the amount refunded.",
        headers: paymentResponse(
          "The refund (base64 JSON): its transaction and the amount sent back to the payer.",
          true,
        ),
        content: { "application/json": { schema: ChannelRefundSchema } },
      },
      402: {
        description:
          "The refund terms (no PAYMENT-SIGNATURE, or one that is not base64 JSON of x402 version 2): PaymentRequired in the PAYMENT-REQUIRED header (base64), batch-settlement only, the body {}; or the refund was refused (PAYMENT-REQUIRED's error says why, e.g. nothing left to refund). Nothing is charged.",
        // The official middleware's 402: the terms travel in the header, the body is empty JSON.
        headers: paymentRequired(
          "PaymentRequired (base64 JSON): the batch-settlement terms, or why the refund was refused.",
        ),
        content: { "application/json": { schema: z.object({}).openapi("ChannelRefundTerms") } },
      },
      405: error(
        `method_not_allowed: the GET carried a payment that is not a refund (a voucher or a deposit); nothing was settled or charged.`,
      ),
    },
  });
}

/**
 * A PAYMENT-SIGNATURE that is not base64 JSON at all pays for nothing, and the official
 * middleware answers the plain terms for it anyway, but only after printing its decoding error
 * with a stack trace to stderr: one multi-line entry beside the JSON log lines for every such
 * request anyone sends. Dropped here first, the answer is the same 402 and the log stays clean.
 * A payload of another x402 version than 2 is dropped too: the official middleware would hand a
 * version 1 payload naming `accepted` terms to the facilitator, which has no version 1 scheme,
 * and the 402 would blame an unavailable facilitator. A HEAD's payment is always dropped.
 */
const dropUnreadablePayment: MiddlewareHandler = async (c, next) => {
  const headers = c.req.raw.headers;
  const header = headers.get("payment-signature");
  // A HEAD asks what a GET would answer; it must not act, so it never settles a refund.
  if (c.req.method === "HEAD") headers.delete("payment-signature");
  else if (header !== null) {
    let version: unknown;
    try {
      version = decodePaymentSignatureHeader(header).x402Version;
    } catch {
      version = undefined;
    }
    if (version !== 2) headers.delete("payment-signature");
  }
  return next();
};

/** The package's code for a channel the server holds no state of. */
const missingChannel = "invalid_batch_settlement_evm_missing_channel";

/**
 * A refund voucher for a channel this server holds no state of (refunded once idle, or closed,
 * and forgotten): the official middleware fails it only while settling and answers a bare 402
 * (no PAYMENT-REQUIRED, body {}), from which a payer cannot tell why, and presend's client then
 * said the deposit "stays in the channel" of a channel whose rest was already back in the
 * wallet. Answered here instead with the refund terms and why, as every other refused refund:
 * PAYMENT-REQUIRED's error is `invalid_batch_settlement_evm_missing_channel`. Nothing is settled.
 */
function refuseRefundOfUnknownChannel(store: ChannelStorage): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.raw.headers.get("payment-signature");
    if (header === null) return next();
    const payload = decodePaymentSignatureHeader(header).payload;
    if (!isBatchSettlementRefundPayload(payload)) return next();
    if ((await store.get(payload.voucher.channelId.toLowerCase())) !== undefined) return next();
    // The terms the same GET without the voucher is answered, with the refusal's reason.
    c.req.raw.headers.delete("payment-signature");
    await next();
    const terms = c.res.headers.get("payment-required");
    if (c.res.status !== 402 || terms === null) return;
    const refused = { ...decodePaymentRequiredHeader(terms), error: missingChannel };
    c.res.headers.set("payment-required", encodePaymentRequiredHeader(refused));
  };
}

/**
 * GET on a paid route: the official middleware answers the refund itself (the scheme skips the
 * handler, then the refund is settled on chain); anything else that reaches the handler (a GET
 * carrying a voucher or a deposit) is answered 405, so nothing is settled or charged. Registered
 * as OpenAPI operations, so the document names the refund a client's close uses.
 * @example registerChannelRefundRoutes(app, ["/check", "/deep"], x402, channels.store);
 */
export function registerChannelRefundRoutes(
  app: App,
  paths: readonly PaidPath[],
  x402: MiddlewareHandler,
  store: ChannelStorage,
): void {
  for (const path of paths) {
    app.openapi(
      refundRoute(path, x402, store),
      // jsonError's answer is an untyped Response; its 405 is the one documented above.
      (c) =>
        jsonError(
          c,
          405,
          "method_not_allowed",
          `GET ${path} only refunds a payment channel; a check is POST ${path}. Nothing was charged.`,
        ) as never,
    );
  }
}
