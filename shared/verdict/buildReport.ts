import { getAddress } from "viem";
import type { Report } from "../api/report";
import { decideVerdict } from "./decideVerdict";
import { formatReportText } from "./formatReportText";
import type { TargetInput } from "./targetFindings";

export type ReportInput = TargetInput & {
  /** When the facts were read (ISO 8601); passed in so building stays pure. */
  checkedAt: string;
};

/**
 * The single-chain report with its text; throws viem's InvalidAddressError on a malformed address.
 * @example buildReport({ address, checksum, target: baseFacts, checkedAt: new Date().toISOString() }).verdict.level // "ok"
 */
export function buildReport({ address, checksum, target, checkedAt }: ReportInput): Report {
  // Lowercased first so an address with a wrong checksum still normalizes to its EIP-55 form.
  const normalized = getAddress(address.toLowerCase());
  const verdict = decideVerdict({ address: normalized, checksum, target });
  const content = { address: normalized, checksum, chain: target, verdict, checkedAt };
  return {
    address: normalized,
    checksum,
    chain: target,
    verdict,
    report: formatReportText(content),
    checkedAt,
  };
}
