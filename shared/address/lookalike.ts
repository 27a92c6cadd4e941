import { type Address, isAddress } from "viem";

// Address poisoning crafts an address whose visible ends match one the victim used before;
// wallets usually show only these characters.
const matchedHexChars = 4;

function visibleEnds(address: string): string {
  const hex = address.slice(2).toLowerCase();
  return `${hex.slice(0, matchedHexChars)}…${hex.slice(-matchedHexChars)}`;
}

/**
 * The first known address with the same first and last 4 hex characters but a different middle.
 * @example findLookalike("0xd8dA000000000000000000000000000000006045", ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"]) // "0xd8dA6BF2…"
 */
export function findLookalike(candidate: string, known: readonly Address[]): Address | null {
  if (!isAddress(candidate, { strict: false })) return null;
  const candidateLower = candidate.toLowerCase();
  const candidateEnds = visibleEnds(candidate);
  for (const address of known) {
    if (!isAddress(address, { strict: false })) continue;
    if (address.toLowerCase() === candidateLower) continue;
    if (visibleEnds(address) === candidateEnds) return address;
  }
  return null;
}
