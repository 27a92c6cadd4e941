import { getAddress } from "viem";
import type { DeepReport } from "../api/report";
import { type DeepInput, decideDeepVerdict } from "./decideDeepVerdict";
import { formatReportText } from "./formatReportText";

export type DeepReportInput = DeepInput & {
  /** When the facts were read (ISO 8601); passed in so building stays pure. */
  checkedAt: string;
};

/**
 * The deep report with its text; throws viem's InvalidAddressError on a malformed address.
 * @example buildDeepReport({ address, checksum, target: baseFacts, others, checkedAt }).verdict.wrongNetwork.flagged // false
 */
export function buildDeepReport(input: DeepReportInput): DeepReport {
  const { checksum, target, checkedAt } = input;
  // Lowercased first so an address with a wrong checksum still normalizes to its EIP-55 form.
  const normalized = getAddress(input.address.toLowerCase());
  const others = input.others.filter((facts) => facts.name !== target.name);
  const verdict = decideDeepVerdict({ address: normalized, checksum, target, others });
  const content = { address: normalized, checksum, chain: target, verdict, checkedAt, others };
  return {
    address: normalized,
    checksum,
    chain: target,
    verdict,
    report: formatReportText(content),
    checkedAt,
    others,
  };
}
