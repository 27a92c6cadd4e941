import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";

/** What a paid check asked about: the address, the chain, and the sender when one was given. */
export type AskedSubject = { address: string; chain: ChainName; from?: string };

/**
 * Why a report is not about what was asked (another address, chain or sender), or null when it
 * is. Its signature binds the report to a settlement, not to the request: a signed report of
 * another check (an earlier one replayed, or another payer's) verifies as well as the right
 * one, so a verdict is shown only for the address, chain and sender it was paid for.
 * @example const mismatch = reportSubjectMismatch(report, { address, chain: "base" });
 */
export function reportSubjectMismatch(
  report: Report | DeepReport,
  asked: AskedSubject,
): string | null {
  const same = (a: string | undefined, b: string | undefined) =>
    (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();
  if (!same(report.address, asked.address)) {
    return `The report is about ${report.address}, not the address asked (${asked.address.trim()}).`;
  }
  if (report.chain.name !== asked.chain) {
    return `The report is about ${report.chain.name}, not the chain asked (${asked.chain}).`;
  }
  if (!same(report.from, asked.from)) {
    return `The report was made for the sender ${report.from ?? "none"}, not the one asked (${asked.from?.trim() ?? "none"}).`;
  }
  return null;
}
