import { getAddress } from "viem";
import type { ListsReport } from "../api/addressLists";
import type { Report } from "../api/report";
import { decideVerdict } from "./decideVerdict";
import { formatReportText } from "./formatReportText";
import type { TargetInput } from "./targetFindings";

export type ReportInput = TargetInput & {
  /** When the facts were read (ISO 8601); passed in so building stays pure. */
  checkedAt: string;
  /** The sender the check is made for (`from`), when the request named one. */
  from?: string;
  /** The operator's lists consulted and what matched, when any list is loaded. */
  lists?: ListsReport;
};

/**
 * The single-chain report with its text; throws viem's InvalidAddressError on a malformed address.
 * @example buildReport({ address, checksum, target: baseFacts, checkedAt: new Date().toISOString() }).verdict.level // "ok"
 */
export function buildReport(input: ReportInput): Report {
  const { address, checksum, target, checkedAt, lists } = input;
  // Lowercased first so an address with a wrong checksum still normalizes to its EIP-55 form.
  const normalized = getAddress(address.toLowerCase());
  const from = input.from === undefined ? undefined : getAddress(input.from.toLowerCase());
  const verdict = decideVerdict({
    address: normalized,
    checksum,
    target,
    from: from ?? null,
    listMatches: lists?.matches ?? [],
  });
  const sender = { ...(from && { from }), ...(lists && { lists }) };
  const content = { address: normalized, ...sender, checksum, chain: target, verdict, checkedAt };
  return {
    address: normalized,
    ...(from && { from }),
    checksum,
    chain: target,
    verdict,
    ...(lists && { lists }),
    report: formatReportText(content),
    checkedAt,
  };
}
