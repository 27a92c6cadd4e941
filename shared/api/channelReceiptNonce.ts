import { encodeAbiParameters, type Hex, keccak256, stringToBytes } from "viem";

/**
 * The payment-record nonce of a check paid over a batch-settlement channel: the voucher (channel
 * id and the cumulative ceiling it signs) and the x402 payment-identifier the request carried.
 * Server and payer compute it alike, so the payer finds the report at
 * /receipts/{payer}/{nonce} and checks the report signature (which binds this nonce in place of
 * a transaction: a voucher has none) without trusting the answer; a new payment id makes a new
 * record, so a voucher sent again after a refusal is not taken for the one that was refused.
 * @example const nonce = channelReceiptNonce(channelId, 30000n, "pay_0123456789abcdef");
 */
export function channelReceiptNonce(channelId: Hex, cumulative: bigint, paymentId: string): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes32" }],
      [channelId, cumulative, keccak256(stringToBytes(paymentId))],
    ),
  );
}
