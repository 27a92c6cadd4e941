import type { DeepReport, Report } from "@presend/shared/api/report";
import type { Address, Hex } from "viem";
import type { PresendConfig } from "../createPresendConfig";
import { notCharged } from "../outcomes";
import type { ReceiptResult } from "../PresendResult";
import { followKeyRotation } from "../policy/followKeyRotation";
import { fetchStoredReceipt, type ReceiptKey } from "../recovery/fetchStoredReceipt";
import { trustStoredReceipt } from "../recovery/trustStoredReceipt";

/** A paid payment, by settlement transaction or by payer and authorization nonce. */
export type ReceiptParameters = Hex | { payer: Address; nonce: Hex };

/**
 * A paid report fetched again: by settlement transaction (GET /receipts/{tx}), or by payer and
 * authorization nonce when the transaction was never learned (GET /receipts/{payer}/{nonce}),
 * signed by the payer and verified with the pinned key. "Not charged" only when the server says
 * it holds no such payment (404 receipt_not_found); any other failure leaves the charge unknown.
 * @example const again = await receipt(config, { payer, nonce });
 */
export async function receipt(
  config: PresendConfig,
  key: ReceiptParameters,
): Promise<ReceiptResult> {
  const by: ReceiptKey =
    typeof key === "string"
      ? { transaction: key }
      : { authorization: { ...key, amount: "", payTo: "0x" as Address } };
  const unavailable = (code: string, status: number | null, message: string) => ({
    type: "receipt_unavailable" as const,
    code,
    status,
    message,
    charged: "unknown" as const,
  });
  const pin = await config.pinStore.get(config.origin);
  if (pin === undefined) {
    return unavailable(
      "attestation_missing",
      null,
      `No key is pinned for ${config.origin}: a report cannot be verified without one.`,
    );
  }
  const payer = config.signer();
  if (payer === null) {
    return unavailable("no_signer", null, "Fetching a receipt needs the payer's key.");
  }
  const fetched = await fetchStoredReceipt(config, by, await payer);
  if (fetched.type === "missing") {
    // Only the server saying it holds no settled payment proves nothing was charged; a 409
    // (not decided yet), a 403 (another signer) or no answer says nothing about the charge.
    if (fetched.status === 404 && fetched.code === "receipt_not_found") {
      return notCharged("receipt_not_found", 404, fetched.message);
    }
    const code = fetched.status === 409 ? "receipt_pending" : (fetched.code ?? "unreachable");
    return unavailable(code, fetched.status, fetched.message);
  }
  const trusted = await trustStoredReceipt<Report | DeepReport>(
    fetched.body,
    pin,
    null,
    by,
    (target) => followKeyRotation(config, pin, target),
  );
  if (trusted !== null) return trusted;
  return {
    type: "forged",
    charged: "unknown",
    settlement: null,
    report: fetched.body,
    message: "The stored receipt is malformed or names another payment.",
  };
}
