import { ErrorBodySchema } from "@presend/shared/api/errors";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { z } from "zod";
import type { Settlement } from "../PresendResult";
import { errorCode, errorOf, isRedirect } from "./errorOf";
import { readSettlement } from "./readSettlement";
import { termsChangedMessage } from "./termsChangedMessage";

/**
 * What the answer to a paid request says about money:
 * - `settled`: a 200 with a settlement; the report is to be read (and trusted only if signed).
 * - `not_charged`: the answer proves nothing was settled.
 * - `unknown`: anything else. Charged for sure when it names a settlement, else unknown; either
 *   way the report is to be fetched again through /receipts.
 */
export type PaidAnswer =
  | { type: "settled"; settlement: Settlement }
  | { type: "not_charged"; code: string; status: number; message: string }
  | { type: "unknown"; settlement: Settlement | null; message: string };

/**
 * 409 codes that refuse this request's authorization before it is verified, and say the id's
 * earlier use is not this check's payment: nothing charged for it. `payment_id_in_flight` is not
 * one: the request being served with this id (a first attempt whose answer was lost, still
 * running once the client stopped waiting) may be charging for this very check.
 */
const paymentIdRefusals = new Set(["payment_id_conflict"]);

/**
 * 503 codes that promise nothing was charged: the target or payment chain was unreadable, or the
 * facilitator gave no answer to the verification.
 */
const notChargedUnavailable = new Set([
  "chain_unavailable",
  "payment_network_unavailable",
  "facilitator_unavailable",
]);

/** Failure reasons that leave a transfer that was sent and may still be mined. */
const openSettlementReasons = new Set(["settlement_pending", "settlement_unknown"]);

/**
 * A settlement response that says nothing moved: success false and no transaction (an empty one
 * is how x402 says none was sent).
 */
const SettleFailureSchema = z.object({
  success: z.literal(false),
  transaction: z.literal("").optional(),
  errorReason: z.string().optional(),
});

/**
 * Classifies the answer to an exact payment. "Not charged" only on proof; a 5xx, a proxy's page,
 * a redirect or an unreadable PAYMENT-RESPONSE may follow a settlement and stay unknown.
 * @example const answer = await classifyPaidAnswer(response, requirement);
 */
export async function classifyPaidAnswer(
  answer: Response,
  requirement: PaymentRequirements,
): Promise<PaidAnswer> {
  const settlement = readSettlement(answer, requirement);
  if (answer.status === 200 && settlement !== null) return { type: "settled", settlement };
  const failedReason = settlementFailure(answer);
  if (failedReason !== null) {
    return {
      type: "not_charged",
      code: "settlement_failed",
      status: answer.status,
      message: `The server tried to settle the payment and says it failed (${failedReason}) without sending a transaction: nothing was charged.`,
    };
  }
  if (settlement === null && (await provesNoCharge(answer))) {
    const changed = termsChangedMessage(answer, requirement);
    if (changed !== null) {
      return {
        type: "not_charged",
        code: "terms_changed",
        status: answer.status,
        message: changed,
      };
    }
    const refusal = paymentRefusal(answer);
    if (refusal !== null && (await errorCode(answer)) === null) {
      return {
        type: "not_charged",
        code: refusal,
        status: answer.status,
        message: `The server refused the payment (${refusal}): nothing was charged.`,
      };
    }
    const error = await errorOf(answer);
    return { type: "not_charged", code: error.code, status: answer.status, message: error.message };
  }
  return {
    type: "unknown",
    settlement,
    message: isRedirect(answer)
      ? "The paid request was answered with a redirect (not followed)."
      : (await errorCode(answer)) === "payment_id_in_flight"
        ? "Another request with this payment id is still being served: whether it charged for this check is not known yet (ask /receipts, or retry with the same payment id)."
        : `The paid request was answered with HTTP ${answer.status}.`,
  };
}

// Only these answers prove the payment was not settled: a 402 refusing the payment before
// settlement (no PAYMENT-RESPONSE; one with it is settlementFailure's to read), the server's own
// 4xx error (a 409 aside), a 503 that says nothing was charged. Anything else (a 5xx, a proxy's
// page, a redirect) may follow a settlement.
async function provesNoCharge(answer: Response): Promise<boolean> {
  if (answer.status === 402) return answer.headers.get("payment-response") === null;
  // authorization_in_flight / authorization_used: the same authorization may have paid already.
  // A payment id conflict turns this (fresh) authorization away before verifying it.
  if (answer.status === 409) return paymentIdRefusals.has((await errorCode(answer)) ?? "");
  if (answer.status < 400 || answer.status >= 600) return false;
  const body = ErrorBodySchema.safeParse(
    await answer
      .clone()
      .json()
      .catch(() => null),
  );
  if (!body.success) return false;
  if (answer.status === 503) return notChargedUnavailable.has(body.data.error.code);
  return answer.status < 500;
}

/**
 * Why a 402 refused the payment it was sent with, as x402 says it: the new challenge's `error`
 * (in PAYMENT-REQUIRED), e.g. invalid_exact_evm_insufficient_balance when the payer holds too
 * little USDC. Without it the payer was told only "HTTP 402". A short code only, never free text
 * from upstream; null when the answer names none.
 */
function paymentRefusal(answer: Response): string | null {
  const header = answer.status === 402 ? answer.headers.get("payment-required") : null;
  if (header === null) return null;
  try {
    const reason = decodePaymentRequiredHeader(header).error ?? "";
    return /^[A-Za-z0-9_.:-]{1,64}$/.test(reason) ? reason : null;
  } catch {
    return null;
  }
}

/**
 * The reason of a 402 whose PAYMENT-RESPONSE (read by the official x402 helper) says the server
 * tried to settle and failed before sending anything: success false, no transaction, and not a
 * reason that leaves a transfer in flight. Null for every other answer, whose charge stays open.
 */
function settlementFailure(answer: Response): string | null {
  if (answer.status !== 402 || answer.headers.get("payment-response") === null) return null;
  try {
    const settled: unknown = new x402HTTPClient(new x402Client()).getPaymentSettleResponse((name) =>
      answer.headers.get(name),
    );
    const failed = SettleFailureSchema.safeParse(settled);
    if (!failed.success) return null;
    const reason = failed.data.errorReason ?? "";
    if (openSettlementReasons.has(reason)) return null;
    // Shown to the payer: a short code only, never free text from upstream.
    return /^[A-Za-z0-9_.:-]{1,64}$/.test(reason) ? reason : "no reason code";
  } catch {
    return null;
  }
}
