import { getAddress } from "viem";
import type { ListsReport } from "../api/addressLists";
import type { DeepReport } from "../api/report";
import { type DeepInput, decideDeepVerdict } from "./decideDeepVerdict";
import { formatReportText } from "./formatReportText";

export type DeepReportInput = Omit<DeepInput, "from" | "listMatches"> & {
  /** When the facts were read (ISO 8601); passed in so building stays pure. */
  checkedAt: string;
  /** The sender the check is made for (`from`), when the request named one. */
  from?: string;
  /** The operator's lists consulted and what matched, when any list is loaded. */
  lists?: ListsReport;
};

/**
 * The deep report with its text; throws viem's InvalidAddressError on a malformed address.
 * @example buildDeepReport({ address, checksum, target: baseFacts, others, checkedAt }).verdict.wrongNetwork.flagged // false
 */
export function buildDeepReport(input: DeepReportInput): DeepReport {
  const { checksum, target, checkedAt, lists } = input;
  // Lowercased first so an address with a wrong checksum still normalizes to its EIP-55 form.
  const normalized = getAddress(input.address.toLowerCase());
  const from = input.from === undefined ? undefined : getAddress(input.from.toLowerCase());
  const others = input.others.filter((facts) => facts.name !== target.name);
  const verdict = decideDeepVerdict({
    address: normalized,
    checksum,
    target,
    others,
    from: from ?? null,
    listMatches: lists?.matches ?? [],
    ...(input.singletonsHere && { singletonsHere: input.singletonsHere }),
  });
  const sender = { ...(from && { from }), ...(lists && { lists }) };
  const content = {
    address: normalized,
    ...sender,
    checksum,
    chain: target,
    verdict,
    checkedAt,
    others,
  };
  return {
    address: normalized,
    ...(from && { from }),
    checksum,
    chain: target,
    verdict,
    ...(lists && { lists }),
    report: formatReportText(content),
    checkedAt,
    others,
  };
}
