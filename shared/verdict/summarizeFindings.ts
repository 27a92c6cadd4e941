import type { Level, Reason } from "../api/report";
import { levelRank } from "./levelRank";

/** A reason plus what the verdict says when this reason is the deciding one. */
export type Finding = Reason & {
  /** Short title shown when this finding decides the verdict. */
  headline: string;
  /** One actionable sentence. */
  next: string;
};

export type VerdictSummary = {
  level: Level;
  headline: string;
  next: string;
  reasons: Reason[];
};

// Among findings of the same level, the one that best explains what to do comes first:
// what the address IS beats how it is used, and facts about the target beat side notes.
const findingPriority = [
  "address_poisoning",
  "listed_drainer",
  "listed_scam",
  "exchange_deposit_wrong_network",
  "zero_address",
  "burn_address",
  "precompile",
  "stablecoin_contract",
  "listed_token_contract",
  "protocol_contract_elsewhere",
  "sweeper_contract",
  "sweeper_contract_elsewhere",
  "eip7702_sweeper",
  "wallet_forwards_deposits",
  "eip7702_sweeper_elsewhere",
  "eip7702_open_delegate",
  "safe_not_set_up",
  "wallet_code",
  "checksum_invalid",
  "token_contract",
  "safe_taken_here",
  "safe_not_deployable",
  "safe_code_differs",
  "safe_elsewhere",
  "contract_elsewhere",
  "token_contract_elsewhere",
  "wrong_network",
  "contract_elsewhere_unverified",
  "eip7702_rejects_native",
  "rejects_native",
  "paid_lookalikes",
  "planted_in_history",
  "dust_from_recipient",
  "poisoning_fingerprint",
  "listed_scam_elsewhere",
  "listed_drainer_elsewhere",
  "exchange_collector",
  "listed_protocol",
  "unknown_contract",
  "nft_contract",
  "chain_unavailable",
  "eip7702_unknown_delegate",
  "eip7702_helper_delegate",
  "history_unknown",
  "history_unread",
  "internal_sends_unknown",
  "first_time_recipient",
  "safe_owners_differ",
  "safe_unrecognised",
  "unused_account",
  "receive_only",
  "bridged_usdc_only",
  "stablecoin_elsewhere",
  "fresh_address",
  "checksum_missing",
  "other_chain_unavailable",
  "unclassified",
  "other_chain_facts_unknown",
  "exchange_deposit",
  "known_counterparty",
  "active_wallet",
  "bridged_usdc_elsewhere",
] as const;

function priorityOf(code: string): number {
  const index = (findingPriority as readonly string[]).indexOf(code);
  return index === -1 ? findingPriority.length : index;
}

// Without any finding nothing was verified, and unverified is never ok.
const nothingVerified: Finding = {
  code: "unclassified",
  level: "caution",
  message: "Nothing could be verified about this address.",
  headline: "Could not verify this address",
  next: "Do not rely on this check; run it again.",
};

/**
 * Orders findings (highest level first, then by priority) and derives level, headline and next.
 * @example summarizeFindings([fresh, checksumMissing]).next // "Send a small test amount first."
 */
export function summarizeFindings(findings: readonly Finding[]): VerdictSummary {
  const ordered = (findings.length > 0 ? [...findings] : [nothingVerified]).sort(
    (a, b) => levelRank(b.level) - levelRank(a.level) || priorityOf(a.code) - priorityOf(b.code),
  );
  const deciding = ordered[0] ?? nothingVerified;
  return {
    level: deciding.level,
    headline: deciding.headline,
    next: deciding.next,
    reasons: ordered.map(({ code, level, message, chain }) =>
      chain ? { code, level, message, chain } : { code, level, message },
    ),
  };
}
