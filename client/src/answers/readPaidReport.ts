import {
  type DeepReport,
  DeepReportSchema,
  type Report,
  ReportSchema,
} from "@presend/shared/api/report";
import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import type { PresendConfig } from "../createPresendConfig";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome, Settlement } from "../PresendResult";
import { followKeyRotation } from "../policy/followKeyRotation";
import { chooseReportKey } from "./chooseReportKey";
import { verifyPaymentReceipt } from "./verifyPaymentReceipt";

export type PaidReport<R> =
  | Extract<PaidOutcome<R>, { type: "report" | "forged" }>
  /** Charged (the settlement is known) but the body is no report: fetch it again. */
  | { type: "unreadable" };

/**
 * The report of a settled 200, trusted only when its detached signature binds it to the
 * settlement and the signed receipt names the same payment, both with the pinned key (or one it
 * replaced, for a report made before that key handed over, or the key the pinned one handed
 * over to, followed by its rotation statements); charged either way, so an untrusted one is
 * "forged", never "not charged".
 * @example const read = await readPaidReport<Report>(config, answer, settlement, pin, "/check");
 */
export async function readPaidReport<R extends Report | DeepReport>(
  config: PresendConfig,
  answer: Response,
  settlement: Settlement,
  pin: PinRecord,
  route: "/check" | "/deep",
): Promise<PaidReport<R>> {
  const signature = answer.headers.get(reportSignatureHeader);
  const body: unknown = await answer.json().catch(() => undefined);
  const report = (route === "/deep" ? DeepReportSchema : ReportSchema).safeParse(body);
  if (!report.success) return { type: "unreadable" };
  const forged = (message: string) =>
    ({ type: "forged", charged: true, settlement, report: body, message }) as const;
  const choice = chooseReportKey(pin, signature, report.data.checkedAt);
  let key: AttestationKey;
  if (choice.type === "key") {
    key = choice.jwk;
  } else {
    // The server may have rotated between its 402 and this answer: a key the pinned one vouched for is fine.
    const followed = await followKeyRotation(config, pin, { kid: choice.kid });
    if (followed.type === "refused") return forged(`${choice.message} ${followed.message}`);
    key = followed.pin.jwk;
  }
  const verified = await verifyReportSignature({ signature, report: body, settlement, key });
  if (verified.type === "forged") return forged(verified.message);
  const receipt = await verifyPaymentReceipt(answer, settlement, key);
  if (receipt !== "verified") return forged(receipt);
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
