import type { PaymentRecords } from "../records/paymentRecords";
import type { ReportSigner } from "./createReportSigner";

/**
 * The one signature of a settled report: the one its record keeps when there is one (so a report
 * answered again, by a retry or by /receipts, carries the signature it was first sent with, still
 * verifiable by the key that was current then), otherwise signed now and kept.
 * @example const signReport = keptReportSignature(records, createReportSigner(signer));
 */
export function keptReportSignature(
  records: Pick<PaymentRecords, "byTransaction" | "keepReportSignature">,
  sign: ReportSigner,
): ReportSigner {
  return async (report, settlement) => {
    const record = await records.byTransaction(settlement.transaction).catch(() => undefined);
    // Checks paid over one channel share their claim transaction: the record found by it is
    // this report's only if it holds this report.
    const sameSettlement =
      record !== undefined &&
      record.payer.toLowerCase() === settlement.payer.toLowerCase() &&
      record.network === settlement.network &&
      JSON.stringify(record.report) === JSON.stringify(report);
    if (sameSettlement && record.reportSignature) return record.reportSignature;
    const signature = await sign(report, settlement);
    if (!sameSettlement) return signature;
    // A records store that is down costs the kept copy, not the answer.
    const kept = await records.keepReportSignature(record, signature).catch(() => undefined);
    return kept?.reportSignature ?? signature;
  };
}
