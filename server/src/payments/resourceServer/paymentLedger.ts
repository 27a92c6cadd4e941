import type { ErrorCode } from "@presend/shared/api/errors";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { Context, MiddlewareHandler } from "hono";
import { getAddress } from "viem";
import type { AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import { holdLease, type Lease } from "../../paymentRecords/holdLease";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import type { SettlementReceipt } from "../attestation/offerReceiptExtension";
import {
  facilitatorUnavailable,
  paymentNetworkUnavailable,
} from "../facilitator/guardedFacilitator";
import type { PaidAuthorization } from "../intake/authorizationOf";
import type { PaymentRecord, PaymentRecords } from "../records/paymentRecords";
import { settlementUnknown as settlementUnknownReason } from "../settlement/recordSettlements";

/** Header naming where the report of a payment with an unknown outcome can be fetched. */
export const receiptLocationHeader = "PRESEND-RECEIPT";

export type PaymentLedgerOptions = {
  /** The payment records: read here, written by the handler and the settlement step. */
  records: PaymentRecords;
  lock: InFlightLock;
  /** Public base URL (no trailing slash), for the receipt location. */
  publicUrl: string;
  /** Signs the offer-receipt of a report answered from its record. */
  settlementReceipt: SettlementReceipt;
  /** Where lock-store faults are reported (the server's log). */
  onError: (error: unknown) => void;
};

/**
 * How long a lock outlives a replica that died holding it; renewed every third of it while the
 * request runs, so a slow settlement keeps it and a retry after a dead replica waits seconds.
 */
export const leaseTtlMs = 6_000;

/** Where every kept report is fetched again (GET /receipts/{tx}, /receipts/{payer}/{nonce}). */
export const receiptsPathPrefix = "/receipts/";

/** The path a payer fetches a payment's report from, knowing only the authorization. */
export function authorizationReceiptPath(payer: string, nonce: string): string {
  return `${receiptsPathPrefix}${payer.toLowerCase()}/${nonce.toLowerCase()}`;
}

/**
 * Verification refusals that say a part of the payment path did not answer, not that the payment
 * was bad: each is a 503 of its own, nothing charged.
 */
const unavailableRefusals: Record<string, { code: ErrorCode; message: string } | undefined> = {
  [paymentNetworkUnavailable]: {
    code: "payment_network_unavailable",
    message:
      "The payment network (Base) cannot be reached, so the payment could not be verified. Nothing was charged; try again shortly.",
  },
  [facilitatorUnavailable]: {
    code: "facilitator_unavailable",
    message:
      "The payment facilitator did not answer, so the payment could not be verified. Nothing was charged; try again shortly.",
  },
};

/**
 * Around the x402 middleware of a paid route: one authorization buys one engine run (a second
 * request with an authorization in flight or already recorded is answered 409 at once), and the
 * payment record decides the answer once settlement is over: an unknown outcome is a 502
 * `settlement_unknown` that says where the report will be, a settled one is the report even if
 * the facilitator's answer was lost. Every other answer leaves here without upstream text: the
 * PAYMENT-RESPONSE errorMessage is dropped, a payment chain that is down is a 503
 * `payment_network_unavailable`, a facilitator that gave no answer to the verification a 503
 * `facilitator_unavailable`, and the official middleware's own `{error: "..."}` 5xx bodies
 * become the JSON error contract.
 * @example createRoute({ middleware: [guard, paymentIntake(), signedReport(sign), paymentLedger(opts), envelope, x402] })
 */
export function paymentLedger(options: PaymentLedgerOptions): MiddlewareHandler<AppEnv> {
  const { records, lock, onError } = options;
  /** A lease on `key`, null when held elsewhere, or the 503 answer when the lock store is down. */
  async function lease(c: Context<AppEnv>, key: string): Promise<Lease | null | Response> {
    try {
      return await holdLease(lock, key, leaseTtlMs, onError);
    } catch (error) {
      // Without the lock two replicas could both run and settle one payment: fail closed,
      // before anything is verified or settled.
      onError(error);
      return jsonError(
        c,
        503,
        "payment_record_unavailable",
        "The payment could not be registered before paying (the shared lock store does not answer), so it was not taken. Nothing was charged; try again shortly.",
      );
    }
  }
  return async function paymentLedger(c, next) {
    const payment = c.get("payment");
    if (payment === undefined) {
      await next();
      return finish(c, null);
    }
    const { authorization, paymentId, requestHash } = payment;
    if (paymentId === null) return authorized(c, next, authorization);
    // A retry with the same payment id is answered from its record: never verified or charged
    // again, whatever authorization it carries.
    const held = await lease(c, `payment-id:${paymentId}`);
    if (held instanceof Response) return held;
    if (held === null) return inFlightElsewhere(c, paymentId, requestHash);
    try {
      const existing = await records.byPaymentId(paymentId).catch(() => undefined);
      if (existing !== undefined) return await retried(c, existing, requestHash, options);
      c.set("paymentId", { id: paymentId, requestHash });
      return await authorized(c, next, authorization);
    } finally {
      await held.release();
    }
  };

  /**
   * 409 `payment_id_in_flight`. Once the request being served has recorded its payment (it is
   * settling), the answer names where that payment's report is kept (PRESEND-RECEIPT): a caller
   * that stops waiting fetches that receipt, not one under its own retry's authorization, which
   * paid nothing. Not for another request under the same id, which is a conflict, not this check.
   */
  async function inFlightElsewhere(
    c: Context<AppEnv>,
    paymentId: string,
    requestHash: string,
  ): Promise<Response> {
    const serving = await records.byPaymentId(paymentId).catch(() => undefined);
    const response = jsonError(
      c,
      409,
      "payment_id_in_flight",
      "A request with this payment id is being served right now. Retry it once that one has answered.",
    );
    if (serving !== undefined && serving.requestHash === requestHash) {
      const path = authorizationReceiptPath(serving.payer, serving.nonce);
      response.headers.set(receiptLocationHeader, `${options.publicUrl}${path}`);
    }
    return response;
  }

  async function authorized(
    c: Context<AppEnv>,
    next: () => Promise<void>,
    authorization: PaidAuthorization,
  ) {
    const key = { payer: authorization.payer, nonce: authorization.nonce };
    const held = await lease(c, `${key.payer.toLowerCase()}:${key.nonce.toLowerCase()}`);
    if (held instanceof Response) return held;
    if (held === null) {
      return jsonError(
        c,
        409,
        "authorization_in_flight",
        "This payment authorization is being used by another request right now. One authorization pays for one check: sign a new one for another check.",
      );
    }
    try {
      const existing = await records.byAuthorization(key).catch(() => undefined);
      if (existing !== undefined) return alreadyUsed(c, existing, options.publicUrl);
      c.set("authorization", authorization);
      try {
        await next();
      } catch (error) {
        // Something failed once the payment may have been sent: the record, not the exception,
        // says what the payer gets. No record means nothing was written, so nothing was settled.
        const record = await records.byAuthorization(key).catch(() => undefined);
        const answer = record && records.answerOf(record);
        if (answer === undefined || answer.type === "not_charged") throw error;
        onError(error);
        c.res = undefined;
        c.res =
          answer.type === "report"
            ? await settledReport(c, answer.record, answer.tx, options)
            : unknownOutcome(c, answer.record, options);
        return;
      }
      let record: PaymentRecord | undefined;
      try {
        record = await records.byAuthorization(key);
      } catch {
        // The record cannot say what happened: only the answer itself (or the handler's own
        // refusal, which comes before any payment) can prove the payer was not charged. Anything
        // else may follow a charge, so it is never left a 402.
        if (c.get("refusedBeforePayment") !== true && settlementMayHaveRun(c.res)) {
          c.res = undefined;
          c.res = chargeNotKnownYet(c, key, {
            publicUrl: options.publicUrl,
            cause: "its payment record could not be read",
          });
          return;
        }
      }
      return finish(c, record ?? null);
    } finally {
      await held.release();
    }
  }

  /** The answer once settlement is over: the record's, when it says more than the response. */
  async function finish(c: Context<AppEnv>, record: PaymentRecord | null) {
    const answer = record && records.answerOf(record);
    if (answer?.type === "open" && settledIn(c.res) !== null) {
      // The facilitator answered the transaction and the report is in hand, but the record's
      // settled mark was not written (the store stopped taking writes after the charge): the
      // payer gets what they paid for, and the record is marked when the chain is next asked
      // (/receipts, the reconciler). A 502 here would read "may have been charged" for a charge
      // that is known, and send the payer to a receipt the store cannot mark yet.
      scrubPaymentResponse(c);
      return;
    }
    if (answer?.type === "open" || answer?.type === "awaiting_claim") {
      c.res = undefined;
      c.res = unknownOutcome(c, answer.record, options);
      return;
    }
    if (answer?.type === "report" && settledIn(c.res) !== answer.tx.toLowerCase()) {
      // The facilitator's answer was lost or wrong (a failure, or a success naming no
      // transaction), the chain shows the transfer: the report with its settlement.
      // Cleared first: a response built while c.res is set starts from its headers, and the
      // failed answer's would ride along (its full challenge alone is 14 KB).
      c.res = undefined;
      c.res = await settledReport(c, answer.record, answer.tx, options);
      return;
    }
    scrubPaymentResponse(c);
    const status = c.res.status;
    const unavailable =
      status === 402 ? unavailableRefusals[challengeError(c.res) ?? ""] : undefined;
    if (unavailable) {
      c.res = undefined;
      c.res = jsonError(c, 503, unavailable.code, unavailable.message);
      return;
    }
    if (status >= 500 && !(await isErrorContract(c.res))) {
      c.res = undefined;
      c.res =
        status === 502 || status === 504
          ? jsonError(
              c,
              502,
              "facilitator_unavailable",
              "The payment facilitator did not answer properly. Nothing was charged; try again shortly.",
            )
          : jsonError(c, 500, "internal_error", "Something went wrong on our side.");
    }
  }
}

/** The report a settled record bought, with its settlement as PAYMENT-RESPONSE. */
export async function settledReport(
  c: Context<AppEnv>,
  record: PaymentRecord,
  tx: string,
  options: Pick<PaymentLedgerOptions, "settlementReceipt" | "publicUrl">,
): Promise<Response> {
  const settlement = await recordedSettlement(record, tx, options);
  return c.json(record.report as object, 200, { "PAYMENT-RESPONSE": settlement });
}

/** The PAYMENT-RESPONSE of a settled record: its settlement, with a signed offer-receipt if one can be made. */
export async function recordedSettlement(
  record: PaymentRecord,
  tx: string,
  options: Pick<PaymentLedgerOptions, "settlementReceipt" | "publicUrl">,
): Promise<string> {
  // Records keep the payer in lowercase; the settlement names it as the first answer did (EIP-55).
  const payer = getAddress(record.payer);
  const extensions = await options
    .settlementReceipt({
      resourceUrl: `${options.publicUrl}${record.route}`,
      payer,
      network: record.network,
      transaction: tx,
    })
    .catch(() => ({}));
  return encodePaymentResponseHeader({
    success: true,
    transaction: tx,
    network: record.network as `${string}:${string}`,
    payer,
    amount: record.amount,
    extensions,
  });
}

/** The answer to a request whose payment id is already recorded. */
async function retried(
  c: Context<AppEnv>,
  recorded: PaymentRecord,
  requestHash: string,
  options: PaymentLedgerOptions,
): Promise<Response> {
  // An open outcome is asked of the chain first: the retry is the report once the chain shows
  // the transfer. Nothing is sent; an unreadable chain leaves the record as it was.
  const record = await options.records.decide(recorded).catch(() => recorded);
  if (record.requestHash !== requestHash) {
    return jsonError(
      c,
      409,
      "payment_id_conflict",
      "This payment id already paid for a different request (route, address or chain). Use a new payment id for a new check; nothing was charged for this one.",
    );
  }
  const answer = options.records.answerOf(record);
  if (answer.type === "report") return settledReport(c, record, answer.tx, options);
  if (answer.type === "not_charged") {
    return jsonError(
      c,
      409,
      "payment_id_conflict",
      "This payment id belongs to a payment that was not charged. Use a new payment id; nothing was charged for this one.",
    );
  }
  return unknownOutcome(c, record, options);
}

function unknownOutcome(
  c: Context<AppEnv>,
  record: PaymentRecord,
  options: Pick<PaymentLedgerOptions, "records" | "publicUrl">,
): Response {
  const { publicUrl } = options;
  const path = authorizationReceiptPath(record.payer, record.nonce);
  const answer = options.records.answerOf(record);
  const decidedBy = answer.type === "open" ? answer.decidedBy : null;
  const response = jsonError(
    c,
    502,
    "settlement_unknown",
    `The settlement of your payment was sent but its outcome could not be read, so you may have been charged. Your report is kept: GET ${publicUrl}${path}?signature=<EIP-191 signature by the payer over "presend receipt ${record.nonce.toLowerCase()}"> answers it once the chain shows the transfer${decidedBy ? ` (by ${decidedBy} at the latest it is known either way)` : ""}.`,
  );
  response.headers.set(receiptLocationHeader, `${publicUrl}${path}`);
  return response;
}

/** Where a paid report is fetched again: by the payment's authorization, or by its transaction. */
export type ReceiptPlace = { payer: string; nonce: string } | { transaction: string };

/**
 * The answer to a payer who was charged when the answer could not be completed after the charge
 * (its report could not be signed, or `cause` says what else stopped it): 502
 * `settlement_unknown` saying so, the settlement it was charged by (PAYMENT-RESPONSE, as
 * settled) and where the report, kept in its record, is fetched (PRESEND-RECEIPT), never a 500,
 * which would read "nothing was charged". `awaitingClaim`: a channel payment's report is served
 * there once the server's next claim covers it.
 * @example c.res = chargedReportKept(c, { payer, nonce }, { publicUrl, settlement: header });
 */
export function chargedReportKept(
  c: Context<AppEnv>,
  place: ReceiptPlace,
  options: {
    publicUrl: string;
    settlement: string | null;
    awaitingClaim?: boolean;
    /** What stopped the answer, as the message says it (default: the report's signature). */
    cause?: string;
  },
): Response {
  const { url, signed } = receiptOf(place, options.publicUrl);
  const cause = options.cause ?? "the report could not be signed";
  const response = jsonError(
    c,
    502,
    "settlement_unknown",
    `Your payment was charged${options.settlement === null ? "" : " (PAYMENT-RESPONSE names the settlement)"}, but the answer could not be completed: ${cause}. Your report is kept: GET ${url}?signature=<EIP-191 signature by the payer over "presend receipt ${signed}"> answers it${options.awaitingClaim ? " once the server's next claim covers this channel payment" : ""}. Do not pay again for it.`,
  );
  response.headers.set(receiptLocationHeader, url);
  if (options.settlement !== null) response.headers.set("PAYMENT-RESPONSE", options.settlement);
  return response;
}

/**
 * The answer to a payer whose answer failed while it is not known whether the payment was
 * charged (its record is still open, or could not be read): 502 `settlement_unknown` saying so
 * and where the report is fetched once the chain shows the transfer, or a channel payment's once
 * the next claim covers it (PRESEND-RECEIPT); never "nothing was charged". `decidedBy`: when the
 * outcome is known either way, if the record says.
 * @example c.res = chargeNotKnownYet(c, { payer, nonce }, { publicUrl, cause: "an internal error stopped it" });
 */
export function chargeNotKnownYet(
  c: Context<AppEnv>,
  place: ReceiptPlace,
  options: { publicUrl: string; cause: string; decidedBy?: string | null; awaitingClaim?: boolean },
): Response {
  const { url, signed } = receiptOf(place, options.publicUrl);
  const when = options.awaitingClaim
    ? "once the server's next claim covers this channel payment"
    : `once the chain shows the transfer${options.decidedBy ? ` (by ${options.decidedBy} at the latest it is known either way)` : ""}`;
  const response = jsonError(
    c,
    502,
    "settlement_unknown",
    `The answer could not be completed (${options.cause}) and whether your payment was charged is not known yet. If it was, your report is kept: GET ${url}?signature=<EIP-191 signature by the payer over "presend receipt ${signed}"> answers it ${when}. Ask there before paying again.`,
  );
  response.headers.set(receiptLocationHeader, url);
  return response;
}

/** A kept report's URL and the value its payer signs to fetch it (lowercase). */
function receiptOf(place: ReceiptPlace, publicUrl: string): { url: string; signed: string } {
  const path =
    "transaction" in place
      ? `${receiptsPathPrefix}${place.transaction.toLowerCase()}`
      : authorizationReceiptPath(place.payer, place.nonce);
  const signed = "transaction" in place ? place.transaction : place.nonce;
  return { url: `${publicUrl}${path}`, signed: signed.toLowerCase() };
}

function alreadyUsed(c: Context<AppEnv>, record: PaymentRecord, publicUrl: string): Response {
  const path = authorizationReceiptPath(record.payer, record.nonce);
  const response = jsonError(
    c,
    409,
    "authorization_used",
    record.status === "failed"
      ? "This payment authorization was already used for a check that was not charged. Sign a new one."
      : record.status === "settled"
        ? `This payment authorization already paid for a check. Its report: GET ${publicUrl}${path}?signature=${signatureHint(record.nonce)}. Sign a new authorization for another check.`
        : // Its settlement may have been sent (or refused before sending, as when the records
          // could not be read): only the chain can say, and nothing more is charged for it.
          `This payment authorization was already presented for a check, and whether it was charged is not decided yet; nothing more is charged for it. Its outcome (and its report, if it was charged): GET ${publicUrl}${path}?signature=${signatureHint(record.nonce)}. Sign a new authorization for another check.`,
  );
  if (record.status !== "failed")
    response.headers.set(receiptLocationHeader, `${publicUrl}${path}`);
  return response;
}

function signatureHint(nonce: string): string {
  return `<EIP-191 signature by the payer over "presend receipt ${nonce.toLowerCase()}">`;
}

/**
 * Whether an answer may follow a settlement that was sent, judged from the answer alone (for
 * when the payment record cannot be read). Not when it is the paid 200 with its settlement, nor
 * when it proves nothing was sent: a PAYMENT-RESPONSE refusal other than `settlement_unknown`
 * (the settlement step only says that once the chain or the facilitator showed nothing went
 * out), a 402 challenge without PAYMENT-RESPONSE (verification refused the payment before the
 * route ran), or the route's own 4xx (x402 settles only answers below 400). A bare 402 (x402's
 * answer when settlement threw), a 5xx, or a `settlement_unknown` refusal may follow a charge.
 */
function settlementMayHaveRun(response: Response): boolean {
  if (settledIn(response) !== null) return false;
  const header = response.headers.get("payment-response");
  if (header !== null) {
    try {
      const settlement = decodePaymentResponseHeader(header);
      return settlement.success || settlement.errorReason === settlementUnknownReason;
    } catch {
      return true;
    }
  }
  if (response.status === 402) return response.headers.get("payment-required") === null;
  return response.status < 400 || response.status >= 500;
}

/** The transaction a paid 200 names in its PAYMENT-RESPONSE (lowercase), else null. */
function settledIn(response: Response): string | null {
  const header = response.headers.get("payment-response");
  if (response.status !== 200 || header === null) return null;
  try {
    const settlement = decodePaymentResponseHeader(header);
    return settlement.success && settlement.transaction
      ? settlement.transaction.toLowerCase()
      : null;
  } catch {
    return null;
  }
}

/** Drops errorMessage from PAYMENT-RESPONSE: upstream text (RPC URLs, raw transactions). */
function scrubPaymentResponse(c: Context<AppEnv>) {
  const header = c.res.headers.get("payment-response");
  if (header === null) return;
  try {
    const { errorMessage: _dropped, ...settlement } = decodePaymentResponseHeader(header);
    c.res.headers.set("PAYMENT-RESPONSE", encodePaymentResponseHeader(settlement));
  } catch {
    c.res.headers.delete("payment-response");
  }
}

function challengeError(response: Response): string | undefined {
  const header = response.headers.get("payment-required");
  if (header === null) return undefined;
  try {
    return decodePaymentRequiredHeader(header).error;
  } catch {
    return undefined;
  }
}

async function isErrorContract(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: ErrorCode } };
    return typeof body.error?.code === "string";
  } catch {
    return false;
  }
}
