import type { x402ResourceServer } from "@x402/core/server";
import { channelPaymentOf } from "./channelPaymentOf";
import type { ChannelStore } from "./channelStore";

/** The refusal's stable reason (the 402's PAYMENT-REQUIRED `error`). */
export const channelWithdrawalPending = "channel_withdrawal_pending";

const refusal = {
  abort: true as const,
  reason: channelWithdrawalPending,
  message:
    "The payer started a timed withdrawal of this channel on the escrow: it takes no more vouchers. Nothing was charged; pay with a new channel or with exact.",
};

/**
 * Refuses vouchers over a channel whose payer started the escrow's timed withdrawal (read by the
 * facilitator's verification, or by the claim job's sync with the escrow), before the route runs.
 * Once the delay has passed the payer can take back everything not yet claimed, so a voucher
 * taken then could be served and never paid; refusing from the moment the withdrawal is seen
 * leaves the claim job a whole delay to claim the vouchers taken before it. The stored view
 * keeps the withdrawal until the escrow says otherwise (the claim job's sync, a new deposit).
 * @example refuseWithdrawingChannels(resourceServer, store);
 */
export function refuseWithdrawingChannels(
  resourceServer: x402ResourceServer,
  store: Pick<ChannelStore, "get" | "updateChannel">,
): void {
  resourceServer.onBeforeVerify(async ({ paymentPayload }) => {
    const payment = channelPaymentOf(paymentPayload);
    if (payment?.type !== "voucher") return;
    const channel = await store.get(payment.channelId);
    if ((channel?.withdrawRequestedAt ?? 0) > 0) return refusal;
  });
  // The facilitator read the escrow (the stored view was too old to verify from): a withdrawal
  // it found is kept, and the voucher refused before the scheme reserves the channel for it.
  resourceServer.onAfterVerify(async ({ paymentPayload, result }) => {
    if (!result.isValid) return;
    const payment = channelPaymentOf(paymentPayload);
    if (payment?.type !== "voucher") return;
    const requestedAt = Number(result.extra?.withdrawRequestedAt ?? 0);
    if (!(requestedAt > 0)) return;
    await store.updateChannel(payment.channelId, (current) =>
      current === undefined || current.withdrawRequestedAt === requestedAt
        ? current
        : { ...current, withdrawRequestedAt: requestedAt },
    );
    return refusal;
  });
}
