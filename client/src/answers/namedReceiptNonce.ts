import { hexAddressSource } from "@presend/shared/address/addressPattern";
import type { Address, Hex } from "viem";

/** `…/receipts/{payer}/{nonce}`: the payer's address and the authorization's 32-byte nonce. */
const receiptPlace = new RegExp(`/receipts/(${hexAddressSource})/(0x[0-9a-fA-F]{64})$`);

/** Where the server says an answered payment's report is kept (docs/api.md, errors). */
const receiptLocationHeader = "PRESEND-RECEIPT";

/**
 * The authorization nonce of this payer's receipt an answer names in PRESEND-RECEIPT
 * (`…/receipts/{payer}/{nonce}`), or null. A retry by payment id carries a new authorization,
 * but the server answers from the payment that id made: while its outcome is open, the report
 * is kept under that payment's nonce, never under the retry's (which paid nothing). Only the
 * nonce is taken, and only for this payer: the receipt is still fetched from the API's own URL,
 * signed by the payer, and trusted only for the payment and the check asked.
 * @example const nonce = namedReceiptNonce(answer, payer.address);
 */
export function namedReceiptNonce(answer: Response, payer: Address): Hex | null {
  const named = answer.headers.get(receiptLocationHeader);
  if (named === null) return null;
  let path: string;
  try {
    path = new URL(named).pathname;
  } catch {
    return null;
  }
  const place = receiptPlace.exec(path);
  if (place === null || place[1]?.toLowerCase() !== payer.toLowerCase()) return null;
  return (place[2] ?? "").toLowerCase() as Hex;
}
