import type { Context } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import type { AuthorizationKey, PaymentRecord, PaymentRecords } from "../records/paymentRecords";
import {
  chargedReportKept,
  chargeNotKnownYet,
  type PaymentLedgerOptions,
  receiptsPathPrefix,
  recordedSettlement,
} from "./paymentLedger";

export type FailedRequestAnswerOptions = Pick<
  PaymentLedgerOptions,
  "publicUrl" | "settlementReceipt"
> & {
  records: Pick<PaymentRecords, "byAuthorization" | "byPaymentId" | "answerOf">;
};

/** How an unexpected error is named to the payer: nothing internal. */
const cause = "an internal error stopped it";

/**
 * What a request that failed with an unexpected error (a bug, not bad input) answers about its
 * payment, so the app's 500 never says "nothing was charged" unless it is known. A request that
 * carried a payment (the intake's reading, or the key a ledger set) is answered from its payment
 * record: settled is the 502 that says it was charged (PAYMENT-RESPONSE names the settlement) and
 * where the report is kept; an open outcome, a channel payment awaiting its claim or a record
 * that cannot be read is the 502 that says the charge is not known yet and where to look; no
 * record (nothing settles unrecorded) or a failed one is the 500 that says nothing was charged. A retry by payment id is answered from that id's record first: the
 * payer asks again precisely because it does not know. A request for a kept report (/receipts)
 * gets a 500 that says nothing about charging. null: the request has nothing to do with a payment
 * (the plain 500 stands).
 * @example app.onError(async (error, c) => (await failedRequestAnswer(options)(c)) ?? plain500(c));
 */
export function failedRequestAnswer(
  options: FailedRequestAnswerOptions,
): (c: Context<AppEnv>) => Promise<Response | null> {
  const { records, publicUrl } = options;
  return async function failedRequestAnswer(c) {
    const key = paymentKeyOf(c);
    const paymentId = c.get("payment")?.paymentId ?? null;
    if (key === null) {
      return c.req.path.startsWith(receiptsPathPrefix)
        ? jsonError(c, 500, "internal_error", "Internal error; try again shortly.")
        : null;
    }
    let record: PaymentRecord | undefined;
    try {
      record =
        (paymentId === null ? undefined : await records.byPaymentId(paymentId)) ??
        (await records.byAuthorization(key));
    } catch {
      return chargeNotKnownYet(c, key, { publicUrl, cause });
    }
    const answer = record && records.answerOf(record);
    if (answer === undefined || answer.type === "not_charged") {
      return jsonError(c, 500, "internal_error", "Internal error; nothing was charged.");
    }
    const place = { payer: answer.record.payer, nonce: answer.record.nonce };
    if (answer.type === "report") {
      return chargedReportKept(c, place, {
        publicUrl,
        cause,
        settlement: await recordedSettlement(answer.record, answer.tx, options),
      });
    }
    // A channel payment's record waits for its claim from before the scheme charges the voucher
    // (a failure inside the paid route may come before that charge): not known until the claim.
    return chargeNotKnownYet(c, place, {
      publicUrl,
      cause,
      ...(answer.type === "open" ? { decidedBy: answer.decidedBy } : { awaitingClaim: true }),
    });
  };
}

/**
 * The record key of the payment the request carries: the one its ledger set (a channel
 * payment's is derived there), else the authorization the intake read; null without a payment.
 */
function paymentKeyOf(c: Context<AppEnv>): AuthorizationKey | null {
  const authorization = c.get("authorization") ?? c.get("payment")?.authorization;
  return authorization ? { payer: authorization.payer, nonce: authorization.nonce } : null;
}
