import type { DeepReport, Report } from "@presend/shared/api/report";
import type { PresendConfig, PresendSigner } from "../createPresendConfig";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome } from "../PresendResult";
import { followKeyRotation } from "../policy/followKeyRotation";
import { fetchStoredReceipt, type ReceiptKey } from "./fetchStoredReceipt";
import { trustStoredReceipt } from "./trustStoredReceipt";

/**
 * A charged (or maybe charged) payment's report fetched again through /receipts and trusted as
 * trustStoredReceipt trusts it; null when it could not be had (the caller says how to fetch it).
 * @example const again = await recoverReport<Report>(config, { transaction }, pin, payer, "/check");
 */
export async function recoverReport<R extends Report | DeepReport>(
  config: PresendConfig,
  by: ReceiptKey,
  pin: PinRecord,
  payer: PresendSigner,
  route: "/check" | "/deep",
): Promise<PaidOutcome<R> | null> {
  config.emit({ type: "recovering", ...by });
  const fetched = await fetchStoredReceipt(config, by, payer);
  if (fetched.type !== "found") return null;
  return trustStoredReceipt<R>(fetched.body, pin, route, by, (target) =>
    followKeyRotation(config, pin, target),
  );
}
