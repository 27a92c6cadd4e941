import { ReceiptSchema } from "@presend/shared/api/receipt";
import {
  type DeepReport,
  DeepReportSchema,
  type Report,
  ReportSchema,
} from "@presend/shared/api/report";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import type { Address, Hex } from "viem";
import { chooseReportKey } from "../answers/chooseReportKey";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome, Settlement } from "../PresendResult";
import type { FollowedRotation, RotationTarget } from "../policy/followKeyRotation";
import type { ReceiptKey } from "./fetchStoredReceipt";

/**
 * A stored receipt from /receipts, trusted only when it is the payment asked for (the same
 * transaction, or the same payer and nonce), for the route asked (when one is), and its report
 * signature verifies with the key current when it was paid: the pinned key, or one the pin
 * replaced after the report was made, or a key the pinned one handed over to, proven by the
 * rotation statements `followRotation` walks (a report the server kept no signature of, as
 * earlier releases kept none for checks paid over a channel, is signed again by its current key
 * when fetched). Null when it is malformed or another payment's; a signature that does not
 * verify is "forged" (charged: the record says it settled).
 * @example const outcome = await trustStoredReceipt<Report>(body, pin, "/check", { transaction }, follow);
 */
export async function trustStoredReceipt<R extends Report | DeepReport>(
  body: unknown,
  pin: PinRecord,
  route: "/check" | "/deep" | null,
  by: ReceiptKey,
  followRotation: (target: RotationTarget) => Promise<FollowedRotation>,
): Promise<Extract<PaidOutcome<R>, { type: "report" | "forged" }> | null> {
  const parsed = ReceiptSchema.safeParse(body);
  if (!parsed.success) return null;
  const stored = parsed.data;
  if (route !== null && stored.route !== route) return null;
  const settlement: Settlement = {
    transaction: stored.tx as Hex,
    network: stored.network,
    payer: stored.payer as Address,
    amount: stored.amount,
    payTo: stored.payTo as Address,
  };
  // The stored payment must be the one asked for: a server cannot answer with another.
  const matches =
    "transaction" in by
      ? settlement.transaction.toLowerCase() === by.transaction.toLowerCase()
      : stored.nonce.toLowerCase() === by.authorization.nonce.toLowerCase() &&
        settlement.payer.toLowerCase() === by.authorization.payer.toLowerCase();
  if (!matches) return null;
  const schema = stored.route === "/deep" ? DeepReportSchema : ReportSchema;
  const report = schema.safeParse(stored.report);
  // The report's own signed time says which key was current when it was paid.
  const madeAt = report.success ? report.data.checkedAt : stored.createdAt;
  const forged = (message: string) =>
    ({ type: "forged", charged: true, settlement, report: stored.report, message }) as const;
  const choice = chooseReportKey(pin, stored.signature, madeAt);
  let key = choice.type === "key" ? choice.jwk : null;
  if (choice.type === "unknown") {
    const followed = await followRotation({ kid: choice.kid });
    if (followed.type === "refused") return forged(`${choice.message} ${followed.message}`);
    key = followed.pin.jwk;
  }
  const verified = await verifyReportSignature({
    signature: stored.signature,
    report: stored.report,
    settlement,
    key: key ?? pin.jwk,
  });
  if (verified.type === "forged") return forged(verified.message);
  if (!report.success) return null;
  return {
    type: "report",
    report: report.data as R,
    settlement,
    signature: "verified",
    receipt: null,
    recovered: true,
    charged: true,
  };
}
