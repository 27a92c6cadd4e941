/** How the channel manager claims, settles and refunds (seconds). */
export type ChannelSchedule = {
  claimIntervalSecs: number;
  settleIntervalSecs: number;
  refundIntervalSecs: number;
  /** A channel with no request for this long is refunded (claimed first). */
  idleRefundSecs: number;
};

/**
 * The schedule a server runs unless its configuration sets another (CHANNEL_*_SECS): a claim a
 * minute keeps /receipts' wait for a voucher's report short, a sweep to payTo every five minutes
 * batches the transfers, and a day's idleness before a refund leaves a returning payer's deposit
 * in place.
 */
export const channelSchedule: ChannelSchedule = {
  claimIntervalSecs: 60,
  settleIntervalSecs: 300,
  refundIntervalSecs: 3_600,
  idleRefundSecs: 24 * 3_600,
};

/**
 * The longest claim interval a server may run: a payer's own timed withdrawal is seen by the next
 * claim (vouchers refused from then on) and what was charged before it claimed in that run, which
 * has to land well within the escrow's 900 s withdraw delay, or the payer takes it back.
 */
export const maxClaimIntervalSecs = 300;
