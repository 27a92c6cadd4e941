import { type ChecksumResult, checksumStatus } from "@presend/shared/address/checksumStatus";
import { findLookalike } from "@presend/shared/address/lookalike";
import {
  classifySpecialAddress,
  type SpecialAddress,
} from "@presend/shared/address/specialAddresses";
import type { Level } from "@presend/shared/api/report";
import { chains } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import type { AddressCandidate } from "./findAddressCandidate";

/** Everything the badge can say about an address for free, without the network. */
export type LocalAssessment = {
  input: string;
  checksum: ChecksumResult;
  /** The checksum status, or "malformed" when the value is not an address at all. */
  status: ChecksumResult["checksum"]["status"] | "malformed";
  /** A different address the user used before with the same visible ends (address poisoning). */
  lookalikeOf: Address | null;
  /** Zero, burn, precompile or a known stablecoin contract: knowable without the network. */
  special: SpecialAddress | null;
  /**
   * The worst of the above, as the chip shows it. "neutral": nothing wrong is known, and nothing
   * is known to be right either until a paid check: a correct checksum says the address was not
   * mistyped, not that it is safe to send to.
   */
  level: Level | "neutral";
  /** The chip's short label, e.g. "Checksum OK" or "Burn address". */
  label: string;
  /**
   * Whether a paid check makes sense: a mistyped address, or one nobody holds a key for (zero,
   * burn, precompile), never costs a payment. A token contract can still be checked.
   */
  payable: boolean;
  /**
   * The field asks for a token or contract address (fieldAsksForContract): a token contract is
   * what it wants, so that is not a warning here.
   */
  contractField: boolean;
};

/** The chip's label and level for each checksum status ("malformed": not an address at all). */
export const checksumLabels = {
  valid: { label: "Checksum OK · not checked", level: "neutral" },
  missing: { label: "No checksum", level: "caution" },
  invalid: { label: "Wrong checksum", level: "danger" },
  malformed: { label: "Not an address", level: "danger" },
} as const;

const specialLabels: Record<SpecialAddress["kind"], string> = {
  zero: "Zero address",
  burn: "Burn address",
  precompile: "Precompile",
  stablecoin: "Token contract",
};

/**
 * What sending to a well-known address does, in one sentence (the danger the chip stands for).
 * @example specialAddressWarning({ kind: "zero", label: "zero address" })
 */
export function specialAddressWarning(special: SpecialAddress): string {
  switch (special.kind) {
    case "zero":
      return "This is the zero address: nobody holds its key, so anything sent here is lost.";
    case "burn":
      return `This is the ${special.label}: tokens are sent here to destroy them, nobody can send them back.`;
    case "precompile":
      return `This is the ${special.label}, a built-in contract of the chain: it cannot send anything back.`;
    case "stablecoin": {
      const where = (special.chains ?? []).map((name) => chains[name].label).join(", ");
      return `This is the ${special.label} token contract${where ? ` on ${where}` : ""}, not a wallet: tokens sent to a token's own contract are lost. Ask the recipient for their wallet address.`;
    }
  }
}

/**
 * A value that is no address because an invisible character splits it says so: on screen it
 * looks like 0x and 40 hexadecimal characters, which the usual message says it is not.
 */
function withInvisibleNamed(value: string, checksum: ChecksumResult): ChecksumResult {
  if (checksum.problem !== "malformed" || !/\p{Cf}/u.test(value)) return checksum;
  return {
    ...checksum,
    checksum: {
      ...checksum.checksum,
      message:
        "Not an address: it holds an invisible character, copied along with it. Do not send; get the address again.",
    },
  };
}

/**
 * The local, free verdict for a candidate: EIP-55 status, well-known addresses and the
 * lookalike warning.
 * @example assessLocally({ kind: "address", value }, knownAddresses).label // "Checksum OK"
 */
export function assessLocally(
  candidate: AddressCandidate,
  known: readonly Address[],
  options: { contractField?: boolean } = {},
): LocalAssessment {
  const contractField = options.contractField === true;
  const checksum = withInvisibleNamed(candidate.value, checksumStatus(candidate.value));
  const lookalikeOf = checksum.valid ? findLookalike(candidate.value, known) : null;
  const status = checksum.problem === "malformed" ? "malformed" : checksum.checksum.status;
  const found = checksum.problem === "malformed" ? null : classifySpecialAddress(candidate.value);
  const special = contractField && found?.kind === "stablecoin" ? null : found;
  const shown = checksumLabels[status];
  const danger = special ? specialLabels[special.kind] : lookalikeOf ? "Lookalike" : null;
  return {
    input: candidate.value,
    checksum,
    status,
    lookalikeOf,
    special,
    level: danger ? "danger" : shown.level,
    label: danger ?? shown.label,
    payable: checksum.valid && (special === null || special.kind === "stablecoin"),
    contractField,
  };
}
