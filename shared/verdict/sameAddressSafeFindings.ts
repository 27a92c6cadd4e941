import type { ChainFacts } from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { chainLabels } from "./chainLabels";
import { plainKind } from "./plainKind";
import type { Finding } from "./summarizeFindings";

// A finding names its chain only when it is about exactly one.
function onlyChain(names: readonly ChainName[]): { chain?: ChainName } {
  return names.length === 1 && names[0] ? { chain: names[0] } : {};
}

/** The Safe's owners, lowercase, when the facts carry the whole list. */
function ownersOf(facts: ChainFacts): Set<string> | null {
  const safe = facts.safe;
  if (!safe?.ownerAddresses || safe.ownerAddresses.length !== safe.owners) return null;
  return new Set(safe.ownerAddresses.map((owner) => owner.toLowerCase()));
}

/**
 * A Safe on another chain and code at the same address here. The same address on two chains is
 * the same wallet only when it was made the same way by the same people: a Safe made by plain
 * CREATE through a factory (createProxy) sits at whatever address that factory's nonce gives, so
 * on a chain where its owners never made it, whoever reaches that nonce first takes the address
 * with owners and code of their own (the Wintermute loss on Optimism). What is here is compared
 * with what is there: other code, other Safe code (singleton), or owners who are not owners there
 * and can sign alone.
 * @example sameAddressSafeFindings(baseFacts, [ethereumFacts])[0]?.code // "safe_taken_here"
 */
export function sameAddressSafeFindings(
  target: ChainFacts,
  readableOthers: readonly ChainFacts[],
): Finding[] {
  if (target.status !== "ok" || target.isContract !== true) return [];
  const safesElsewhere = readableOthers.filter((facts) => facts.kind === "safe");
  const first = safesElsewhere[0];
  if (!first) return [];
  const hereLabel = chains[target.name].label;

  if (target.kind !== "safe") {
    const names = safesElsewhere.map((facts) => facts.name);
    const where = chainLabels(names);
    return [
      {
        code: "safe_taken_here",
        level: "danger",
        ...onlyChain(names),
        message: `This address is a ${plainKind(first)} on ${where}, but on ${hereLabel} it is a ${plainKind(target)}: not the same wallet. Whoever made it here may not be the recipient (on a network where its owners never made their Safe, its address can be taken by someone else).`,
        headline: `Safe on ${where}, but something else on ${hereLabel}`,
        next: `Do not send on ${hereLabel}: send on ${chainLabels(names.slice(0, 1))}, or ask the recipient for an address that works on ${hereLabel}.`,
      },
    ];
  }

  const ownersHere = ownersOf(target);
  const threshold = target.safe?.threshold;
  const taken: ChainName[] = [];
  const otherCode: ChainName[] = [];
  const otherOwners: ChainName[] = [];
  let quorumUnknown = false;
  for (const facts of safesElsewhere) {
    const ownersThere = ownersOf(facts);
    const strangers =
      ownersHere && ownersThere
        ? [...ownersHere].filter((owner) => !ownersThere.has(owner)).length
        : 0;
    const singletonHere = target.safe?.singleton?.toLowerCase();
    const singletonThere = facts.safe?.singleton?.toLowerCase();
    // Owners who are not owners there and can sign without any who are: they alone move funds.
    if (threshold !== undefined && threshold > 0 && strangers >= threshold) taken.push(facts.name);
    else if (singletonHere && singletonThere && singletonHere !== singletonThere)
      otherCode.push(facts.name);
    else if (
      strangers > 0 ||
      target.safe?.owners !== facts.safe?.owners ||
      threshold !== facts.safe?.threshold
    ) {
      otherOwners.push(facts.name);
      if (!ownersHere || !ownersThere) quorumUnknown = true;
    }
  }

  const findings: Finding[] = [];
  if (taken.length > 0) {
    const where = chainLabels(taken);
    findings.push({
      code: "safe_taken_here",
      level: "danger",
      ...onlyChain(taken),
      message: `This address is a Safe on ${where} and on ${hereLabel}, but not the same Safe: on ${hereLabel} owners who are not owners on ${where} can move funds on their own. Whoever made it here may not be the recipient (on a network where its owners never made their Safe, its address can be taken by someone else).`,
      headline: `Not the same Safe on ${hereLabel} as on ${where}`,
      next: `Do not send on ${hereLabel}: send on ${chainLabels(taken.slice(0, 1))}, or ask the recipient to confirm the Safe's owners on ${hereLabel}.`,
    });
  }
  if (otherCode.length > 0) {
    const where = chainLabels(otherCode);
    findings.push({
      code: "safe_code_differs",
      level: "warn",
      ...onlyChain(otherCode),
      message: `This address is a Safe on ${where} and on ${hereLabel}, but it runs other Safe code (singleton) on ${hereLabel}: its owners may have upgraded it on one network, or someone else made it here.`,
      headline: `Safe on ${hereLabel} runs other code than on ${where}`,
      next: `Ask the recipient to confirm their Safe on ${hereLabel} before sending, or send on ${chainLabels(otherCode.slice(0, 1))}.`,
    });
  }
  if (otherOwners.length > 0) {
    const where = chainLabels(otherOwners);
    findings.push({
      code: "safe_owners_differ",
      level: "caution",
      ...onlyChain(otherOwners),
      message: `This address is a Safe on ${where} and on ${hereLabel}, with other owners or another threshold on ${hereLabel}${quorumUnknown ? "" : `; any signing quorum here still needs an owner from ${where}`}.`,
      headline: `Safe owners differ between ${hereLabel} and ${where}`,
      next: `Confirm with the recipient that the Safe on ${hereLabel} is theirs.`,
    });
  }
  return findings;
}
