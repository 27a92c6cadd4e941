import type { x402ResourceServer } from "@x402/core/server";
import type { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/server";

/**
 * Frees the channel a failed channel settlement had reserved: the scheme's own failure hook
 * (`clearPendingRequest`) never runs once an earlier hook recovers the failure, and
 * recordSettlements recovers every one (no upstream text out). Left reserved, the channel refused
 * its payer's next vouchers and its close as `channel_busy` for the payment's whole timeout, and a
 * deposit whose settlement went unanswered (the facilitator held it) kept a channel of balance 0
 * in the store: once the deposit landed, every voucher over it was refused as above the balance
 * and the client's close said the deposit was spent. Released, a channel that existed goes on
 * from its stored state, and one the deposit was opening is dropped, to be read from the escrow
 * when its payer comes back. Registered before recordSettlements, so it runs first.
 * @example releaseFailedChannelSettlements(resourceServer, channels.scheme, onError);
 */
export function releaseFailedChannelSettlements(
  resourceServer: x402ResourceServer,
  scheme: Pick<BatchSettlementEvmScheme, "clearPendingRequest">,
  onError: (error: unknown) => void,
): void {
  resourceServer.onSettleFailure(async ({ paymentPayload }) => {
    if (paymentPayload.accepted.scheme !== "batch-settlement") return;
    // A store that cannot be written leaves the reservation to expire, as before.
    await scheme.clearPendingRequest(paymentPayload).catch(onError);
  });
}
