import type { ChainFacts, DeepVerdict } from "../api/report";
import { chainActivity } from "./chainActivity";

export type WrongNetwork = DeepVerdict["wrongNetwork"];

/**
 * Flags an address that was never used on the target chain but is active on other chains.
 * @example detectWrongNetwork(freshOnBase, [activeOnArbitrum]) // { flagged: true, activeOn: ["arbitrum"] }
 */
export function detectWrongNetwork(
  target: ChainFacts,
  others: readonly ChainFacts[],
): WrongNetwork {
  // Only a provably idle target counts: an unreadable or used target is not a wrong network.
  if (!chainActivity(target).idle) return { flagged: false, activeOn: [] };
  const activeOn = others
    .filter((facts) => facts.name !== target.name && chainActivity(facts).active)
    .map((facts) => facts.name);
  return { flagged: activeOn.length > 0, activeOn };
}
