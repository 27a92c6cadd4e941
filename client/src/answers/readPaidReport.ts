import {
  type DeepReport,
  DeepReportSchema,
  type Report,
  ReportSchema,
} from "@presend/shared/api/report";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome, Settlement } from "../PresendResult";
import { verifyPaymentReceipt } from "./verifyPaymentReceipt";

export type PaidReport<R> =
  | Extract<PaidOutcome<R>, { type: "report" | "forged" }>
  /** Charged (the settlement is known) but the body is no report: fetch it again. */
  | { type: "unreadable" };

/**
 * The report of a settled 200, trusted only when its detached signature binds it to the
 * settlement with the pinned key and the signed receipt names the same payment; charged either
 * way, so an untrusted one is "forged", never "not charged".
 * @example const read = await readPaidReport<Report>(answer, settlement, pin, "/check");
 */
export async function readPaidReport<R extends Report | DeepReport>(
  answer: Response,
  settlement: Settlement,
  pin: PinRecord,
  route: "/check" | "/deep",
): Promise<PaidReport<R>> {
  const signature = answer.headers.get(reportSignatureHeader);
  const receipt = await verifyPaymentReceipt(answer, settlement, pin);
  const body: unknown = await answer.json().catch(() => undefined);
  const report = (route === "/deep" ? DeepReportSchema : ReportSchema).safeParse(body);
  if (!report.success) return { type: "unreadable" };
  const verified = await verifyReportSignature({
    signature,
    report: body,
    settlement,
    key: pin.jwk,
  });
  if (verified.type === "forged") {
    return { type: "forged", charged: true, settlement, report: body, message: verified.message };
  }
  if (receipt !== "verified") {
    return { type: "forged", charged: true, settlement, report: body, message: receipt };
  }
  return {
    type: "report",
    report: report.data as R,
    settlement,
    signature: "verified",
    receipt: "verified",
    recovered: false,
    charged: true,
  };
}
