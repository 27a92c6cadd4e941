import type { ChainFacts, Level } from "@presend/shared/api/report";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";

/** A verdict level in words, as people read it. */
export const levelWords: Record<Level, string> = {
  ok: "OK",
  caution: "Caution",
  warn: "Warning",
  danger: "Danger",
};

/**
 * What to do, as the card's headline: the decision a level stands for.
 * @example decisionWords.danger // "Don't send"
 */
export const decisionWords: Record<Level, string> = {
  ok: "Looks fine to send",
  caution: "Check with the recipient",
  warn: "Check with the recipient",
  danger: "Don't send",
};

// Kinds the report may carry; a kind this build does not know yet shows as "Contract".
const kindWords: Record<string, string> = {
  eoa: "Wallet",
  "eip7702-delegated": "Smart wallet (upgraded account)",
  safe: "Safe multisig wallet",
  "smart-account": "Smart wallet",
  token: "Token contract",
  nft: "NFT contract",
  contract: "Contract",
};

/**
 * What an address is on one chain, in words people use: words for its kind ("Wallet", "Smart
 * wallet", "Token contract"), and for a Safe the report's own label, which says more in the
 * same words ("Safe (2 owners, threshold 1)"); a dash when the kind is unknown. The report's
 * label for other kinds names standards (EOA, EIP-7702): it stays in the technical details.
 * @example kindInWords({ kind: "eoa" }) // "Wallet"
 */
export function kindInWords(
  facts: Pick<ChainFacts, "kind"> & { kindLabel?: string | null },
): string {
  if (facts.kind === "safe" && facts.kindLabel) return facts.kindLabel;
  if (!facts.kind) return facts.kindLabel ?? "–";
  return kindWords[facts.kind] ?? "Contract";
}

/**
 * A report's sentence in the words the card uses: "wallet" for an externally owned account, and
 * chains by their names ("on Base", not "on base"; the engine says so itself now, a report kept
 * from an older server may not).
 * @example plainWords("Active wallet (EOA) on base") // "Active wallet on Base"
 */
export function plainWords(text: string): string {
  return text
    .replace(/ \(EOA\)/g, "")
    .replace(/\b([Aa])n EOA\b/g, "$1 wallet")
    .replace(/\bEOA\b/g, "wallet")
    .replace(
      new RegExp(`\\b(${chainNames.join("|")})\\b`, "g"),
      (name) => chains[name as ChainName].label,
    );
}
