import type { DeepReport, Report } from "@presend/shared/api/report";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import type { Address, Hex } from "viem";
import { classifyPaidAnswer } from "../answers/classifyPaidAnswer";
import { insufficientBalanceMessage } from "../answers/insufficientBalanceMessage";
import { namedReceiptNonce } from "../answers/namedReceiptNonce";
import { readPaidReport } from "../answers/readPaidReport";
import { undeployedAccountMessage } from "../answers/undeployedAccountMessage";
import type { PresendConfig, PresendSigner } from "../createPresendConfig";
import { describeCause, notCharged, refused } from "../outcomes";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome, SentAuthorization } from "../PresendResult";
import { baseNetwork } from "../policy/checkRequirement";
import { recoverUnknownCharge } from "../recovery/recoverUnknownCharge";
import { sendUntilPaymentIdAnswers } from "../recovery/sendUntilPaymentIdAnswers";
import type { Reservation } from "../SpendCap";

export type ExactPayment = {
  route: "/check" | "/deep";
  paymentRequired: PaymentRequired;
  /** The one requirement the policy accepted: the only one offered to the signer. */
  requirement: PaymentRequirements;
  pin: PinRecord;
  pinnedNow: boolean;
  payer: Promise<PresendSigner>;
  /** The caller's payment id; a new one when absent. */
  paymentId: string | undefined;
  /** Sends the paid request with these headers. */
  post(headers: Record<string, string>): Promise<Response>;
};

/**
 * Pays one check with x402's exact scheme (an EIP-3009 authorization signed by the official
 * client, offered only the verified requirement): reserved in the spend cap before signing,
 * counted as spent once sent, given back only when the answer proves nothing was charged. The
 * report is read when the answer settled; otherwise it is fetched again through /receipts.
 * `sent.paymentId` is set once a payment carrying a payment id is signed.
 * @example const outcome = await payExact<Report>(config, payment, sent);
 */
export async function payExact<R extends Report | DeepReport>(
  config: PresendConfig,
  payment: ExactPayment,
  sent: { paymentId: string | null },
): Promise<PaidOutcome<R>> {
  const { requirement, paymentRequired } = payment;
  // Sent only to a server that declares payment-identifier: one that does not would ignore it.
  const paymentId =
    paymentRequired.extensions?.[PAYMENT_IDENTIFIER] !== undefined
      ? (payment.paymentId ?? generatePaymentId())
      : null;
  let reservation: Reservation | null = null;
  if (config.spendCap) {
    // The server charges a payment id once: a retry with it is the same payment to the cap.
    const reserved = await config.spendCap.reserve(
      BigInt(requirement.amount),
      paymentId === null ? undefined : { key: `${config.origin} ${paymentId}` },
    );
    if (reserved.type === "refused") {
      return refused(reserved.code ?? "cap_reached", reserved.message);
    }
    reservation = reserved.reservation;
  }
  config.emit({
    type: "verified",
    amount: requirement.amount,
    payTo: requirement.payTo as Address,
    fingerprint: payment.pin.fingerprint,
    pinnedNow: payment.pinnedNow,
  });

  // Sign with the official x402 client, offered only the requirement that was verified.
  let payer: PresendSigner;
  let payload: PaymentPayload;
  const http = new x402HTTPClient(new x402Client());
  try {
    payer = await payment.payer;
    const client = new x402Client().register(baseNetwork, new ExactEvmScheme(payer));
    const extensions = { ...paymentRequired.extensions };
    if (paymentId !== null) appendPaymentIdentifierToExtensions(extensions, paymentId);
    payload = await new x402HTTPClient(client).createPaymentPayload({
      ...paymentRequired,
      extensions,
      accepts: [requirement],
    });
    // Named only once signed: an id that went out with nothing is no payment to retry.
    sent.paymentId = paymentId;
  } catch (cause) {
    await reservation?.release();
    return {
      ...notCharged("signing_failed", null, `Signing failed: ${describeCause(cause)}`),
      cause,
    };
  }
  const authorization = sentAuthorization(payload, payer, requirement);
  const charge = { authorization, pin: payment.pin, payer, route: payment.route, requirement };

  // Pay. From here on money may move: counted first, given back only on proof.
  await reservation?.spend();
  config.emit({ type: "paying", authorization, paymentId });
  let answer: Response;
  try {
    const paymentHeaders = http.encodePaymentSignatureHeader(payload);
    answer = await sendUntilPaymentIdAnswers(() => payment.post(paymentHeaders));
  } catch (cause) {
    return recoverUnknownCharge<R>(config, {
      ...charge,
      what: `The paid request failed before an answer arrived (${describeCause(cause)}).`,
      settlement: null,
    });
  }
  let classified = await classifyPaidAnswer(answer, requirement);
  // A settlement of another payer is not this payment's (an earlier answer replayed in its
  // place, its report and receipt signed for that payment): this one's charge stays open and
  // its report is fetched by its own authorization, as the signed-in re-read requires too.
  if (
    classified.type !== "not_charged" &&
    classified.settlement !== null &&
    classified.settlement.payer.toLowerCase() !== payer.address.toLowerCase()
  ) {
    classified = {
      type: "unknown",
      settlement: null,
      message: `The answer names a settlement of another payer (${classified.settlement.payer}), not this payment's.`,
    };
  }
  if (classified.type === "not_charged") {
    await reservation?.release();
    // x402's code alone names neither the address nor what the payer must fix.
    const plain =
      insufficientBalanceMessage(classified.code, {
        payer: payer.address,
        price: BigInt(requirement.amount),
      }) ?? undeployedAccountMessage(classified.code, payer.address);
    if (plain !== null) return notCharged(classified.code, classified.status, plain);
    return notCharged(classified.code, classified.status, classified.message);
  }
  if (classified.settlement !== null) {
    config.emit({ type: "settled", settlement: classified.settlement });
  }
  if (classified.type === "unknown") {
    // A retry by payment id is answered from the payment that id made: its report is kept under
    // that payment's authorization, which the server names; this one's never paid.
    const named = classified.settlement === null ? namedReceiptNonce(answer, payer.address) : null;
    return recoverUnknownCharge<R>(config, {
      ...charge,
      ...(named !== null && { authorization: { ...authorization, nonce: named } }),
      what: classified.message,
      settlement: classified.settlement,
    });
  }
  const read = await readPaidReport<R>(
    config,
    answer,
    classified.settlement,
    payment.pin,
    payment.route,
  );
  if (read.type !== "unreadable") return read;
  // Charged for sure; the stored copy may still be readable.
  return recoverUnknownCharge<R>(config, {
    ...charge,
    what: `Paid (settlement ${classified.settlement.transaction}), but the report is unreadable.`,
    settlement: classified.settlement,
  });
}

/** What recovery needs of the authorization that was signed: payer, nonce, amount, payee. */
function sentAuthorization(
  payload: PaymentPayload,
  payer: PresendSigner,
  requirement: PaymentRequirements,
): SentAuthorization {
  const inner = payload.payload as { authorization?: { nonce?: string } };
  return {
    payer: payer.address,
    nonce: (inner.authorization?.nonce ?? "0x") as Hex,
    amount: requirement.amount,
    payTo: requirement.payTo as Address,
  };
}
