/**
 * The 402 reason (PAYMENT-REQUIRED `error`) of a payment over a channel whose payer started the
 * escrow's timed withdrawal: neither a voucher nor a deposit is taken over it, nothing is charged,
 * and a client pays with a new channel (or `exact`) instead.
 */
export const channelWithdrawalPending = "channel_withdrawal_pending";
