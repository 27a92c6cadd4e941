import type { BatchSettlementClientContext } from "@x402/evm/batch-settlement/client";
import { describeCause } from "../outcomes";

/** One answer the server gave during a close, as the refund saw it. */
export type RefundAnswer = {
  status: number;
  /** Whether a 402 carried a PAYMENT-REQUIRED header. */
  hasTerms: boolean;
  /** Whether the request carried a signed refund voucher (PAYMENT-SIGNATURE). */
  signed: boolean;
};

/** What a failed close knew when it failed. */
export type RefundFailure = {
  cause: unknown;
  /** The server's answers in order (the first is the refund's terms, asked for unsigned). */
  answers: readonly RefundAnswer[];
  /** The challenge had no x402 v2 shape (refused before the package read it). */
  malformedChallenge: boolean;
  /** The package found no state here for the channel (nothing paid through it here). */
  stateMissing: boolean;
  /** The channel state the package last read or kept. */
  lastState: BatchSettlementClientContext | undefined;
};

/** The server's refusal of a refund from a channel whose deposit was all charged. */
const refundNoBalance = "invalid_batch_settlement_evm_refund_no_balance";
/**
 * The server's refusal of a refund voucher counted from an older channel state than its own: a
 * check's answer was lost after the server charged it, and the package could not resync.
 */
export const refundOutOfStep = "invalid_batch_settlement_evm_cumulative_amount_mismatch";
/**
 * The server's refusal of a refund from a channel it holds no state of: it refunded the channel
 * once idle (or it was closed) and forgot it, so the deposit's rest is already back.
 */
const refundMissingChannel = "invalid_batch_settlement_evm_missing_channel";
/** The package's words when the terms offer no channel (batch-settlement) at all. */
const noChannelOffered = /^No batch-settlement payment option/;

/** Whether a channel's state says its whole deposit was charged (nothing left to refund). */
const depositAllCharged = (state: BatchSettlementClientContext | undefined) => {
  const balance = state?.balance ?? "";
  const charged = state?.chargedCumulativeAmount ?? "0";
  return /^\d+$/.test(balance) && /^\d+$/.test(charged) && BigInt(balance) <= BigInt(charged);
};

/**
 * Why a close failed, in presend's words: what the server answered and whether a refund could
 * have been made. The package's own messages name its internals ("Refund probe expected 402")
 * and cannot say whether the deposit is still in the channel; this can, from the answers seen.
 * @example explainRefundFailure({ cause, answers, malformedChallenge, stateMissing, lastState })
 */
export function explainRefundFailure(failure: RefundFailure): string {
  const { answers } = failure;
  const last = answers.at(-1);
  const signedSent = answers.some((answer) => answer.signed);
  if (failure.malformedChallenge) {
    return "The server's payment challenge is not an x402 v2 one (PaymentRequired), so no refund was made.";
  }
  // A 402 is a refusal: whatever was asked, no refund was made by it.
  if (last?.status === 402 && !last.hasTerms) {
    return "The server refused the refund with a 402 that carries no payment challenge (no PAYMENT-REQUIRED header), so no refund was made. The deposit stays in the channel; the server refunds an idle channel on its own.";
  }
  // No refund route at all: presend serves it wherever it offers channels, so it stopped (or
  // this is not its API). A presend server that stops offering channels refunds them itself.
  if (last?.status === 404 && !signedSent) {
    return "The server no longer offers payment channels here (HTTP 404 where its refund terms were expected), so no refund was asked for and nothing was signed or sent. A server that stops offering channels sends back what is left of their deposits on its own.";
  }
  if (last !== undefined && last.status !== 402 && (last.status < 200 || last.status > 299)) {
    return signedSent
      ? `The server answered HTTP ${last.status} to the signed refund, so whether it was made is not known here. Close again: it refunds what is left, or says that nothing is.`
      : `The server did not offer a refund: it answered HTTP ${last.status} where its refund terms (a 402) were expected. Nothing was signed or sent; the deposit stays in the channel, and the server refunds an idle channel on its own.`;
  }
  const said = describeCause(failure.cause);
  if (noChannelOffered.test(said)) {
    return "The server no longer offers payment channels on this route, so no refund was asked for. It refunds an idle channel on its own.";
  }
  // The refund signs a voucher at the channel's charged total, read from its state: without
  // one, no check was paid through this channel since it opened or was last closed.
  if (failure.stateMissing) {
    return "No payment channel is open here: no check was paid through one since the last close (or its record here was lost), so there is nothing to refund from here. A channel left without checks is refunded by the server on its own.";
  }
  // Told by the channel's state here (the package refuses before signing): the checks were
  // charged the whole deposit, none of it is left to send back.
  if (depositAllCharged(failure.lastState)) {
    return "Nothing left to refund: the channel's deposit was all spent on checks.";
  }
  // Told by the server alone: the state here does not say whether checks spent it or the
  // server already refunded an idle channel, so neither is claimed.
  if (said.includes(refundNoBalance)) {
    return "Nothing left to refund: the channel holds none of its deposit any more (spent on checks, or already sent back by the server's refund of an idle channel).";
  }
  // Told by the server: the record here is behind its own. Said in full, since the package's
  // code names no remedy and a close retried as it is fails the same way.
  if (said.includes(refundOutOfStep)) {
    return "The payment channel's record here is behind the server's: a check paid through it was charged but its answer never arrived here (a run stopped or cut off), and the refund could not be resynced, which reads the channel on Base (the signer's readContract, not given or not usable). No refund was made. Close again with read access to Base, or leave the channel: the server refunds an idle channel on its own.";
  }
  if (said.includes(refundMissingChannel)) {
    return "Already closed: what was left of this channel's deposit went back to your wallet (a close whose answer was lost, or presend's server's own refund after a time without checks).";
  }
  return `The refund failed: ${said}`;
}

/**
 * Whether a failed close shows the channel holds nothing to refund any more (all spent, already
 * refunded by the server, or no longer held by it): nothing a later close could return, so the
 * channel need not be offered back again.
 * @example if (nothingLeftToRefund(failure)) forget(channelId)
 */
export function nothingLeftToRefund(failure: RefundFailure): boolean {
  const said = describeCause(failure.cause);
  return (
    !failure.malformedChallenge &&
    (depositAllCharged(failure.lastState) ||
      said.includes(refundNoBalance) ||
      said.includes(refundMissingChannel))
  );
}
