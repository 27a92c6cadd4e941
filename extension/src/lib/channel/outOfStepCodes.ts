/**
 * The batch-settlement scheme's refusals of a voucher out of step with the server's record of
 * the channel (a voucher whose answer was lost): the client cannot resynchronise without reading
 * the chain, so the channel is left for a new one and the server refunds it once idle.
 */
export const outOfStepCodes: readonly string[] = [
  "invalid_batch_settlement_evm_cumulative_amount_mismatch",
  "invalid_batch_settlement_evm_cumulative_below_claimed",
];
