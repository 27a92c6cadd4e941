import { createRoute } from "@hono/zod-openapi";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import {
  CheckRequestSchema,
  type DeepReport,
  DeepReportSchema,
  type Report,
  ReportSchema,
} from "@presend/shared/api/report";
import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import type { ChainName } from "@presend/shared/chains/chains";
import { type RoutesConfig, x402HTTPResourceServer } from "@x402/core/server";
import { declareOfferReceiptExtension } from "@x402/extensions/offer-receipt";
import {
  declarePaymentIdentifierExtension,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { paymentMiddlewareFromHTTPServer } from "@x402/hono";
import type { Context, MiddlewareHandler } from "hono";
import type { Address } from "viem";
import type { Engine, EngineResult } from "../../engine/createEngine";
import type { App, AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import { limits } from "../../limits";
import { reportErrors } from "../../observability/reportErrors";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import { attestationExtensionEntry } from "../attestation/attestationExtension";
import { offerReceiptDeclaration } from "../attestation/offerReceiptExtension";
import { signedReport } from "../attestation/signedReport";
import { channelLedger, channelSettlement } from "../channels/channelLedger";
import {
  channelRefundRouteConfig,
  registerChannelRefundRoutes,
} from "../channels/channelRefundRoutes";
import type { Payments } from "../createPayments";
import { paymentIntake } from "../intake/paymentIntake";
import { exampleRequest, type PaidPath, type PaidRoute, paidRoutes } from "../paidRoutes";
import { maxTimeoutSeconds } from "../paymentTerms";
import { AuthorizationAlreadyRecorded } from "../records/paymentRecords";
import { checkRequestGuard } from "../resourceServer/checkRequestGuard";
import { facilitatorSynced } from "../resourceServer/facilitatorSynced";
import { paymentEnvelope } from "../resourceServer/paymentEnvelope";
import { paymentLedger } from "../resourceServer/paymentLedger";
import { PaymentRequiredBodySchema } from "../resourceServer/paymentRequiredSchema";
import { unpaidChallenge } from "../resourceServer/unpaidChallenge";
import type { SignInState } from "../siwx/createSignInState";
import { signInSecurityScheme } from "../siwx/registerSignInSecurityScheme";
import { signInReread } from "../siwx/signInReread";
import { declareSignInWithX, signInWithXExtension } from "../siwx/signInWithXExtension";
import { discoveryExtension } from "./discoveryExtension";
import {
  type AnswerHeaders,
  paymentRequired,
  paymentResponse,
  receiptLocation,
  reportSignature,
} from "./paymentHeaders";
import { paymentInfo, paymentInfoField } from "./paymentInfo";

export type PaidRoutesDeps = {
  engine: Engine;
  /** Payments, with the payment records' one owner (`payments.records`). */
  payments: Payments;
  /** One engine run per authorization. */
  lock: InFlightLock;
  /** Public base URL (no trailing slash), the resource URL of each paid route. */
  publicUrl: string;
  /** Sign-In-With-X: recent payments and spent nonces (shared with /receipts). */
  signIn: SignInState;
};

/**
 * Registers POST /check and POST /deep (x402 paid); the other routes are listed beside it in
 * `composeServer`.
 * Per paid route: body validation, the payment ledger (one run per authorization, the answer the
 * payment record decides), the 402 envelope, then the official x402 middleware; the handler
 * records the report as pending before it returns, so settlement never happens unrecorded.
 * @example registerPaidRoutes(app, { engine, payments, lock, publicUrl, signIn });
 */
export function registerPaidRoutes(app: App, deps: PaidRoutesDeps): void {
  const publicUrl = deps.publicUrl.replace(/\/+$/, "");
  const { config, channels, records, logger } = deps.payments;
  const routes: RoutesConfig = Object.fromEntries(
    Object.values(paidRoutes).map((route) => [
      `POST ${route.path}`,
      {
        accepts: deps.payments.accepts(route.path),
        resource: `${publicUrl}${route.path}`,
        description: route.description,
        mimeType: "application/json",
        extensions: {
          [attestationExtensionKey]: attestationExtensionEntry(deps.payments.attestation),
          ...discoveryExtension(route.path),
          ...declareOfferReceiptExtension(offerReceiptDeclaration),
          // Optional: a retry carrying the same id gets the same report, charged once.
          [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
          // A wallet that paid may sign in to read its report again instead of paying again.
          ...declareSignInWithX(),
        },
      },
    ]),
  );
  const paths = Object.keys(paidRoutes) as PaidPath[];
  if (channels) {
    Object.assign(
      routes,
      channelRefundRouteConfig(
        channels,
        paths,
        (path) => config.prices[path],
        maxTimeoutSeconds,
        publicUrl,
      ),
    );
  }
  deps.payments.resourceServer.registerExtension(signInWithXExtension(publicUrl));
  const httpServer = new x402HTTPResourceServer(deps.payments.resourceServer, routes);
  // x402's own start-up read of the facilitator is left to facilitatorSynced (the last argument):
  // a failure of it is a 503 there, not an error out of the request.
  const x402 = facilitatorSynced(
    httpServer,
    paymentMiddlewareFromHTTPServer(httpServer, undefined, undefined, false),
    reportErrors(logger, "facilitator supported kinds unreadable"),
  );
  const challengeWithoutPayment = unpaidChallenge(httpServer);
  // The payer hears 503 payment_record_unavailable, nothing charged; the operator, why.
  const recordNotWritten = reportErrors(logger, "payment record not written", "error");
  if (channels) registerChannelRefundRoutes(app, paths, x402, channels.store);

  /**
   * A paid route's steps, in the order a request meets them on its way in; each one that shapes
   * the answer does so on the way out, in the reverse order (x402's answer first, the signature
   * last).
   */
  const middleware = (route: PaidRoute): MiddlewareHandler<AppEnv>[] => [
    // In: 415/413/400 before any 402; the body parsed once.
    checkRequestGuard(),
    // In: the payment header read once (authorization, payment id, request hash) or set aside.
    paymentIntake(),
    // In: a voucher the channel would take starts the engine now, beside all that follows.
    ...(channels ? [earlyRunOverChannel(route)] : []),
    // Out, last: the detached report signature on a paid 200, whoever made it.
    signedReport({
      sign: deps.payments.signReport,
      publicUrl,
      onError: reportErrors(logger, "report signature failed", "error"),
    }),
    // In: a signed-in payer's recent check answered from its record, nothing charged.
    signInReread({
      records,
      state: deps.signIn,
      publicUrl,
      settlementReceipt: deps.payments.settlementReceipt,
      verifyMessage: deps.payments.verifyPayerMessage,
    }),
    // In: leases per payment id and authorization, retries answered from their record.
    // Out: the record decides the answer once settlement is over; no upstream text.
    paymentLedger({
      records,
      lock: deps.lock,
      publicUrl,
      settlementReceipt: deps.payments.settlementReceipt,
      onError: reportErrors(logger, "payment lock failed"),
    }),
    // In and out: the same for a payment over a batch-settlement channel.
    ...(channels
      ? [
          channelLedger({
            records,
            store: channels.store,
            lock: deps.lock,
            payTo: config.payTo,
            network: config.network,
            publicUrl,
            signReport: deps.payments.signReport,
            onError: reportErrors(logger, "channel ledger failed", "error"),
          }),
        ]
      : []),
    // Out: every 402 with its JSON body and reason.
    paymentEnvelope({
      route,
      payments: deps.payments,
      resourceUrl: `${publicUrl}${route.path}`,
      unpaidChallenge: challengeWithoutPayment,
    }),
    // The official middleware: verify, then the handler (which begins the record), then settle
    // (whose hooks write the record: settlement/recordSettlements).
    x402,
  ];

  const check = paidRoute(
    paidRoutes["/check"],
    paymentInfo(config, "/check", channels),
    ReportSchema.extend({}).openapi("Report"),
    middleware,
  );
  app.openapi(check, async (c) => {
    const input = engineInput(c.req.valid("json"));
    const result = await (earlyRunOf<Report>(c, "/check") ?? deps.engine.check(input));
    if (result.type === "unavailable") return unavailable(c, result) as never;
    return (
      (await recordPending(c, paidRoutes["/check"], result.report)) ?? c.json(result.report, 200)
    );
  });
  const deep = paidRoute(
    paidRoutes["/deep"],
    paymentInfo(config, "/deep", channels),
    DeepReportSchema.extend({}).openapi("DeepReport"),
    middleware,
  );
  app.openapi(deep, async (c) => {
    const input = engineInput(c.req.valid("json"));
    const result = await (earlyRunOf<DeepReport>(c, "/deep") ?? deps.engine.deep(input));
    if (result.type === "unavailable") return unavailable(c, result) as never;
    return (
      (await recordPending(c, paidRoutes["/deep"], result.report)) ?? c.json(result.report, 200)
    );
  });

  /**
   * A voucher the channel would take (channels.takesVoucher) starts the route's engine run here,
   * right after the intake read it, beside the ledgers' bookkeeping and the official
   * middleware's verification of it, instead of after them: the run reads the chain while the
   * voucher's signature is recovered and the channel reserved. Its result is read by the
   * handler, which the official middleware reaches only once the voucher verified; a run whose
   * payment is refused (by a ledger or by the scheme) is dropped unread, so nothing unpaid is
   * ever answered or charged. Only a voucher that names a live channel at its next ceiling
   * starts one, and a refused payment counts against its client's challenge budget: a client
   * whose refused payments fill it gets the 429 (rateLimits) before this step, which bounds the
   * chain reads a forger can cause.
   */
  function earlyRunOverChannel(route: PaidRoute): MiddlewareHandler<AppEnv> {
    const price = BigInt(config.prices[route.path as PaidPath]);
    return async function earlyRunOverChannel(c, next) {
      const payment = c.get("channelPayment")?.channel;
      if (payment === undefined || channels === null) return next();
      const body = CheckRequestSchema.safeParse(await c.req.json().catch(() => null));
      if (!body.success || !(await channels.takesVoucher(payment, price).catch(() => false))) {
        return next();
      }
      const input = engineInput(body.data);
      const run: Promise<unknown> =
        route.path === "/deep" ? deps.engine.deep(input) : deps.engine.check(input);
      // Awaited by the handler; a run whose payment was refused is never awaited.
      run.catch(() => {});
      c.set("earlyRun", { path: route.path, run });
      return next();
    };
  }

  /**
   * Writes the paid request and its report as `pending` before the handler returns (the
   * official middleware settles after it). null when recorded; otherwise the answer (>= 400:
   * nothing is settled, so nothing is charged).
   */
  async function recordPending(
    c: Context<AppEnv>,
    route: PaidRoute,
    report: unknown,
  ): Promise<never | null> {
    const authorization = c.get("authorization");
    const paymentId = c.get("paymentId");
    if (authorization === undefined) {
      return jsonError(
        c,
        402,
        "payment_required",
        "Pay with an EIP-3009 authorization (x402 exact scheme on Base).",
      ) as never;
    }
    // A channel payment's report is signed over its record, known now: the signature is made
    // beside the record's write (WebCrypto signs off the main thread) and the channel ledger
    // sends it once the scheme charged the voucher; an uncharged one is never sent.
    if (c.get("channelPayment") !== undefined) {
      const signing = deps.payments.signReport(
        report,
        channelSettlement(authorization, config.network),
      );
      signing.catch(() => {});
      c.set("channelReportSignature", signing);
    }
    try {
      await records.begin({
        payer: authorization.payer,
        nonce: authorization.nonce,
        network: config.network,
        asset: config.asset,
        payTo: config.payTo,
        route: route.path,
        amount: config.prices[route.path],
        validBefore: Number(authorization.validBefore),
        report,
        paymentId: paymentId?.id ?? null,
        requestHash: paymentId?.requestHash ?? null,
      });
      return null;
    } catch (error) {
      if (error instanceof AuthorizationAlreadyRecorded) {
        return jsonError(
          c,
          409,
          "authorization_used",
          "This payment authorization was already presented for a check; nothing more is charged for it. Sign a new one.",
        ) as never;
      }
      recordNotWritten(error);
      c.set("refusedBeforePayment", true);
      return jsonError(
        c,
        503,
        "payment_record_unavailable",
        "The payment could not be recorded, so it was not taken. Nothing was charged; try again shortly.",
      ) as never;
    }
  }
}

function paidRoute<T extends typeof ReportSchema | typeof DeepReportSchema>(
  route: PaidRoute,
  payment: ReturnType<typeof paymentInfo>,
  reportSchema: T,
  middleware: (route: PaidRoute) => MiddlewareHandler[],
) {
  const error = (description: string, headers?: AnswerHeaders) => ({
    description,
    ...(headers && { headers }),
    content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
  });
  return createRoute({
    method: "post",
    path: route.path as PaidPath,
    tags: ["verification"],
    summary: route.summary,
    description: route.description,
    // The payment is the authentication (no API key; x402 crawlers read the price from
    // x-payment-info); a wallet that paid may sign in instead to re-read its report.
    security: [{}, { [signInSecurityScheme]: [] }] as Array<Record<string, string[]>>,
    [paymentInfoField]: payment,
    middleware: middleware(route),
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: CheckRequestSchema.extend({
              // Described here, not in the shared schema: every 402 carries that one (bazaar).
              from: CheckRequestSchema.shape.from.describe(
                "Optional: the sender, the account the money comes from (same rules as address, not equal to it). The check then reads the sender's own stablecoin and native payments on the chain: a lookalike of an address the sender paid is address poisoning (danger), an address it never paid is a first-time recipient (caution).",
              ),
            }).openapi("CheckRequest", { example: { ...exampleRequest } }),
            example: { ...exampleRequest },
          },
        },
      },
    },
    responses: {
      200: {
        description: "The report. PAYMENT-RESPONSE carries the settlement (transaction hash).",
        headers: {
          ...paymentResponse(
            "The settlement (base64 JSON): transaction (empty for a channel's voucher), network, payer.",
            true,
          ),
          ...reportSignature,
          ...receiptLocation(
            "A check paid over a channel: /receipts/{payer}/{nonce}, where its report is fetched again.",
          ),
        },
        content: { "application/json": { schema: reportSchema } },
      },
      400: error(
        "Invalid body, address (malformed or wrong EIP-55 checksum), unknown chain, invalid from (the same rules) or from equal to address; never charged.",
      ),
      402: {
        description:
          "Payment required (or the payment was refused: error says why). PaymentRequired in the PAYMENT-REQUIRED header (base64) and as JSON here.",
        headers: {
          ...paymentRequired(
            "PaymentRequired (base64 JSON), what x402 clients read: the body's terms, without each entry's description, mimeType and outputSchema.",
          ),
          ...paymentResponse(
            "Only when a settlement was tried and failed: success false, errorReason and transaction (empty: nothing was sent, nothing charged).",
            false,
          ),
        },
        content: { "application/json": { schema: PaymentRequiredBodySchema } },
      },
      409: error(
        "authorization_in_flight / authorization_used: this authorization is already paying for another request, or already paid; payment_id_in_flight / payment_id_conflict: a request with this payment id is being served, or the id paid for a different request (or was not charged); the engine was not run and nothing was charged.",
        receiptLocation(
          "Where the outcome and report of the payment this authorization or payment id made are fetched.",
        ),
      ),
      413: error(`Body larger than ${limits.requestBodyBytes / 1024} KB.`),
      415: error(
        "Content-Type is not application/json, or the body is compressed (Content-Encoding).",
      ),
      500: error(
        "internal_error: a fault before any charge (after one, the answer is the report or a 502).",
      ),
      502: error(
        "settlement_unknown: the settlement was sent but its outcome could not be read (you may have been charged), or you were charged (PAYMENT-RESPONSE then names the settlement) and the answer could not be completed (the report could not be signed); either way PRESEND-RECEIPT names where the kept report is fetched. facilitator_unavailable: the facilitator failed before settling, nothing charged.",
        {
          ...receiptLocation("Where the kept report is fetched once the outcome is known."),
          ...paymentResponse("The settlement, when the payment was charged.", false),
        },
      ),
      503: error(
        "chain_unavailable (the target chain could not be read), payment_network_unavailable (Base is down) or payment_record_unavailable: no report, nothing charged. A SIGN-IN-WITH-X re-read without a payment: sign_in_unavailable (the sign-in store does not answer), or signature_unverifiable (the sign-in is a smart account's and Base could not be read to check it; ask again after Retry-After seconds rather than paying again); nothing charged.",
        {
          "Retry-After": {
            description: "With signature_unverifiable: seconds to wait before signing in again.",
            required: false,
            schema: { type: "integer", minimum: 0 },
          },
        },
      ),
    },
  });
}

/** The engine run started for this request by earlyRunOverChannel, if it started one. */
function earlyRunOf<T>(c: Context<AppEnv>, path: PaidPath): Promise<EngineResult<T>> | undefined {
  const early = c.get("earlyRun");
  return early?.path === path ? (early.run as Promise<EngineResult<T>>) : undefined;
}

function engineInput(body: { address: string; chain: ChainName; from?: string | undefined }) {
  // The guard refused anything malformed; the input keeps its case so the report can say
  // whether it carried a checksum (the engine reports the EIP-55 form).
  return {
    address: body.address.trim() as Address,
    chain: body.chain,
    ...(body.from !== undefined && { from: body.from.trim() as Address }),
  };
}

function unavailable(
  c: Parameters<typeof jsonError>[0],
  result: { chain: string; error: string },
): Response {
  // >= 400: the x402 middleware skips settlement, so the payer is not charged.
  return jsonError(
    c,
    503,
    "chain_unavailable",
    `Could not read ${result.chain} (${result.error}); no report and nothing was charged. Try again shortly.`,
  );
}
