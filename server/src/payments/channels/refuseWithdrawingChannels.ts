import { channelWithdrawalPending } from "@presend/shared/api/channelWithdrawalPending";
import type { x402ResourceServer } from "@x402/core/server";
import { channelPaymentOf } from "./channelPaymentOf";
import type { ChannelStore } from "./channelStore";

const refusal = {
  abort: true as const,
  reason: channelWithdrawalPending,
  message:
    "The payer started a timed withdrawal of this channel on the escrow: it takes no more vouchers or deposits until the withdrawal ends. Nothing was charged and no deposit was made; pay with a new channel or with exact.",
};

/**
 * Refuses vouchers over a channel whose payer started the escrow's timed withdrawal (read by the
 * facilitator's verification, or by the claim job's sync with the escrow), before the route runs,
 * and top-up deposits into it while the escrow says the withdrawal is still pending (the
 * facilitator reads it while verifying the deposit, before anything moves): the check such a
 * deposit pays is served at once and claimed later, and the withdrawal takes back every unclaimed
 * unit at its end, so a claim that falls behind leaves it served and never paid.
 * Once the delay has passed the payer can take back everything not yet claimed, so a voucher
 * taken then could be served and never paid; refusing from the moment the withdrawal is seen
 * leaves the claim job a whole delay to claim the vouchers taken before it. The stored view
 * keeps the withdrawal until the escrow says otherwise (the claim job's sync, or a deposit the
 * facilitator verified once the withdrawal ended: the stored flag alone never refuses a deposit).
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
  // The facilitator read the escrow (a deposit, or a voucher whose stored view was too old to
  // verify from): a withdrawal it found is kept, and the payment refused before the scheme
  // reserves the channel for it and before a deposit is settled.
  resourceServer.onAfterVerify(async ({ paymentPayload, result }) => {
    if (!result.isValid) return;
    const payment = channelPaymentOf(paymentPayload);
    if (payment === null) return;
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
