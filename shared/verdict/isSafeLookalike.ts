import type { ChainFacts } from "../api/report";

/**
 * A Safe by its answers whose code is none of Safe's proxies: anyone can write a contract that
 * answers getOwners, getThreshold, nonce and masterCopy (naming a real singleton), so its answers
 * prove nothing, and no Safe factory can make it anywhere else. Facts from before the proxy code
 * was read leave the question open (not a lookalike).
 * @example isSafeLookalike({ ...facts, kind: "safe", safe: { owners: 1, threshold: 1, proxyVersion: null } }) // true
 */
export function isSafeLookalike(facts: ChainFacts): boolean {
  return facts.kind === "safe" && facts.safe?.proxyVersion === null;
}
