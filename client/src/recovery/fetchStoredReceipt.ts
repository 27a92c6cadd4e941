import { receiptMessage } from "@presend/shared/api/receiptMessage";
import type { Hex } from "viem";
import { errorOf } from "../answers/errorOf";
import type { PresendConfig, PresendSigner } from "../createPresendConfig";
import { describeCause } from "../outcomes";
import type { SentAuthorization } from "../PresendResult";

/** How a stored report is found again: by settlement transaction, or by payer and nonce. */
export type ReceiptKey = { transaction: Hex } | { authorization: SentAuthorization };

export type StoredReceipt =
  | { type: "found"; body: unknown }
  | { type: "missing"; status: number | null; code: string | null; message: string };

/** The /receipts path of a key (without the payer's signature). */
export function receiptPath(by: ReceiptKey): string {
  return "transaction" in by
    ? `/receipts/${by.transaction}`
    : `/receipts/${by.authorization.payer}/${by.authorization.nonce}`;
}

/**
 * GET /receipts for a key, proven by the payer's EIP-191 signature of the receipt message: the
 * stored body (not trusted yet), or what the server answered instead.
 * @example const stored = await fetchStoredReceipt(config, { transaction }, payer);
 */
export async function fetchStoredReceipt(
  config: PresendConfig,
  by: ReceiptKey,
  payer: PresendSigner,
): Promise<StoredReceipt> {
  try {
    const id = "transaction" in by ? by.transaction : by.authorization.nonce;
    const proof = await payer.signMessage({ message: receiptMessage(id) });
    const response = await config.send(`${receiptPath(by)}?signature=${proof}`);
    if (response.status !== 200) {
      const error = await errorOf(response);
      return { type: "missing", status: response.status, code: error.code, message: error.message };
    }
    return { type: "found", body: await response.json() };
  } catch (cause) {
    return { type: "missing", status: null, code: null, message: describeCause(cause) };
  }
}
