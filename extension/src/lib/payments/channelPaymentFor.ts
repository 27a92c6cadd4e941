import type { ChannelPaymentOptions, PaidResult, SentAuthorization } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import { outOfStepCodes } from "../channel/outOfStepCodes";

export type ChannelPayment = {
  /** The options the presend client pays over the channel with. */
  options: ChannelPaymentOptions;
  /**
   * Whether the result says the channel is out of step with the server and could not be
   * resynced (the server holds a later voucher than the channel's record: an answer was lost,
   * and the wallet could not read Base or the session key did not prove the server's state).
   */
  outOfStep(result: PaidResult<unknown>): boolean;
};

/** What the person is told when a check ends on a channel out of step: nothing paid, a new one next. */
export const outOfStepMessage =
  "Your payment channel was out of step with presend's server and could not be re-synced, so nothing was paid. Check again: a new channel opens with one deposit, and the rest of the old one comes back to your wallet after a day.";

/**
 * One check's payment over a channel: a voucher's record nonce is written down before the voucher
 * leaves (a lost answer, or a background stopped mid-check, still leaves the report to fetch
 * through /receipts), and a voucher the session key refused is kept to tell an out-of-step
 * channel from any other refusal.
 * @example const channel = channelPaymentFor(options, (sent) => recovery.recordSent(sent));
 */
export function channelPaymentFor(
  options: ChannelPaymentOptions,
  recordSent: (authorization: SentAuthorization) => Promise<void>,
): ChannelPayment {
  let voucherRefusal: unknown;
  const { voucherSigner } = options;
  return {
    options: {
      ...options,
      voucherSigner: {
        ...voucherSigner,
        signTypedData: (typedData) =>
          voucherSigner.signTypedData(typedData).catch((error: unknown) => {
            voucherRefusal = error;
            throw error;
          }),
      },
      beforeSend: recordSent,
    },
    outOfStep: (result) =>
      result.type === "not_charged" &&
      (outOfStepCodes.includes(result.code) ||
        walkCauses(
          voucherRefusal,
          (e) => e instanceof PaymentError && e.code === "channel_out_of_step",
        ) !== null),
  };
}
