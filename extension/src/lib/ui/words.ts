import type { ChainFacts, Level } from "@presend/shared/api/report";

/** A verdict level in words, as people read it. */
export const levelWords: Record<Level, string> = {
  ok: "OK",
  caution: "Caution",
  warn: "Warning",
  danger: "Danger",
};

// Kinds the report may carry; a kind this build does not know yet shows as "Contract".
const kindWords: Record<string, string> = {
  eoa: "Wallet (EOA)",
  "eip7702-delegated": "Wallet with delegated code (EIP-7702)",
  safe: "Safe multisig",
  "smart-account": "Smart account",
  token: "Token contract",
  nft: "NFT contract",
  contract: "Contract",
};

/**
 * What an address is on one chain, in words: the report's own label when it has one
 * ("Safe (2 owners, threshold 1)"), else words for its kind, else a dash.
 * @example kindInWords({ kind: "eoa" }) // "Wallet (EOA)"
 */
export function kindInWords(
  facts: Pick<ChainFacts, "kind"> & { kindLabel?: string | null },
): string {
  if (facts.kindLabel) return facts.kindLabel;
  if (!facts.kind) return "–";
  return kindWords[facts.kind] ?? "Contract";
}
