import type { ListMatch } from "../api/addressLists";
import type { ChainFacts } from "../api/report";
import { listFindings } from "./listFindings";
import { recipientFingerprint } from "./recipientFingerprint";
import { senderFindings } from "./senderFindings";
import type { Finding } from "./summarizeFindings";

/** What a check knows beyond the address's own facts: who sends, and the operator's lists. */
export type SenderContext = {
  /** The sender (`from` of the request, EIP-55); absent or null without one. */
  from?: string | null;
  /** Listed addresses the check met (the engine looks them up). */
  listMatches?: readonly ListMatch[];
};

/**
 * The findings of the sender's history, the checked address's own transfer fingerprint and the
 * operator's lists, over the target chain and (deep) the others.
 * @example historyAndListFindings({ address, target, others: [], from, listMatches: [] })
 */
export function historyAndListFindings(
  input: SenderContext & { address: string; target: ChainFacts; others: readonly ChainFacts[] },
): Finding[] {
  const { address, target, others } = input;
  const all = [target, ...others.filter((facts) => facts.name !== target.name)];
  return [
    ...senderFindings({ address, from: input.from ?? null, target, others }),
    ...recipientFingerprint(all),
    ...listFindings({ matches: input.listMatches ?? [], target, others }),
  ];
}
