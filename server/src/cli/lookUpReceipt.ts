import type { PresendClient, ReceiptResult } from "@presend/client";
import type { Address, Hex } from "viem";

/**
 * A paid report fetched again by the one id a payer was given: the payment's nonce (what a check
 * paid over a channel, or one whose settlement was never learned, names) or its settlement
 * transaction. The nonce is asked first, then the transaction; "not charged" only when the server
 * holds neither, any other failure leaves the charge unknown.
 * @example const again = await lookUpReceipt(client, account.address, id);
 */
export async function lookUpReceipt(
  client: PresendClient,
  payer: Address,
  id: Hex,
): Promise<ReceiptResult> {
  const byNonce = await client.receipt({ payer, nonce: id });
  if (byNonce.type !== "not_charged") return byNonce;
  return client.receipt(id);
}
