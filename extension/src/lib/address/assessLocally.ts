import type { Address } from "viem";
import { type ChecksumResult, checksumStatus } from "../../../../shared/address/checksumStatus";
import { findLookalike } from "../../../../shared/address/lookalike";
import type { AddressCandidate } from "./findAddressCandidate";

/** Everything the badge can say about an address for free, without the network. */
export type LocalAssessment = {
  input: string;
  checksum: ChecksumResult;
  /** The checksum status, or "malformed" when the value is not an address at all. */
  status: ChecksumResult["checksum"]["status"] | "malformed";
  /** A different address the user used before with the same visible ends (address poisoning). */
  lookalikeOf: Address | null;
  /** Whether a paid check makes sense: a malformed or mistyped address never costs a payment. */
  payable: boolean;
};

/**
 * The local, free verdict for a candidate: EIP-55 status and the lookalike warning.
 * @example assessLocally({ kind: "address", value }, knownAddresses).checksum.checksum.status
 */
export function assessLocally(
  candidate: AddressCandidate,
  known: readonly Address[],
): LocalAssessment {
  const checksum = checksumStatus(candidate.value);
  const lookalikeOf = checksum.valid ? findLookalike(candidate.value, known) : null;
  const status = checksum.problem === "malformed" ? "malformed" : checksum.checksum.status;
  return { input: candidate.value, checksum, status, lookalikeOf, payable: checksum.valid };
}
