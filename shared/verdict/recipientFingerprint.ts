import type { ChainFacts } from "../api/report";
import { chains } from "../chains/chains";
import type { Finding } from "./summarizeFindings";

/**
 * Distinct unrelated addresses in zero-value or dust transfers from which the pattern counts:
 * one or two happen to ordinary addresses (a victim's own lookalike planted once); a poisoning
 * address sprays many victims.
 */
export const fingerprintThresholds = { warn: 3, danger: 10 } as const;

/**
 * The checked address's own poisoning fingerprint on each chain whose history was read:
 * zero-value or dust transfers with many unrelated addresses. At least warn; danger when strong.
 * Where the transfers to it were too many to read, a note says the fingerprint was not checked.
 * @example recipientFingerprint([baseFacts])[0]?.code // "poisoning_fingerprint"
 */
export function recipientFingerprint(all: readonly ChainFacts[]): Finding[] {
  const findings: Finding[] = [];
  for (const facts of all) {
    const unread = facts.history?.status === "read" ? facts.history.recipientError : undefined;
    if (unread !== undefined) {
      // The sender's payments were read whole; only this address's own transfers were not. The
      // fingerprint can make an address danger, so not having read it is never ok.
      findings.push({
        code: "history_unread",
        level: "caution",
        chain: facts.name,
        message: `The token transfers to this address on ${chains[facts.name].label} could not be read (${unread}): the address-poisoning fingerprint was not checked there, so presend cannot tell whether this address plants itself in its victims' histories.`,
        headline: "Token history not read",
        next: "Compare the whole address with the one the recipient gave you before you send.",
      });
    }
    const recipient = facts.history?.status === "read" ? facts.history.recipient : null;
    if (!recipient) continue;
    const count = recipient.zeroOrDustCounterparties;
    if (count < fingerprintThresholds.warn) continue;
    const strong = count >= fingerprintThresholds.danger;
    const pattern = [
      recipient.zeroValueTransfers > 0 ? `${recipient.zeroValueTransfers} zero-value` : null,
      recipient.dustTransfers > 0 ? `${recipient.dustTransfers} dust` : null,
    ]
      .filter(Boolean)
      .join(" and ");
    findings.push({
      code: "poisoning_fingerprint",
      level: strong ? "danger" : "warn",
      chain: facts.name,
      message: `On ${chains[facts.name].label} this address took part in ${pattern} token transfers with ${count} different addresses: the pattern of an address-poisoning address, which plants itself in its victims' histories.`,
      headline: "Looks like an address-poisoning address",
      next: "Do not send unless the recipient confirms this exact address through another channel.",
    });
  }
  return findings;
}
