import { classifySpecialAddress } from "../address/specialAddresses";
import type { ChainFacts, TokenMismatch } from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { findAccountImplementation } from "../registry/knownImplementations";
import { findKnownTokenChains } from "../registry/knownTokens";
import { findProtocolContract } from "../registry/protocolContracts";
import { chainLabels } from "./chainLabels";
import type { WrongNetwork } from "./detectWrongNetwork";
import { isSafeLookalike } from "./isSafeLookalike";
import { joinNames } from "./joinNames";
import { plainKind } from "./plainKind";
import { readBalances } from "./readBalances";
import { sameAddressSafeFindings } from "./sameAddressSafeFindings";
import type { Finding } from "./summarizeFindings";
import { unknownFacts } from "./unknownFacts";

export type CrossChainInput = {
  address: string;
  target: ChainFacts;
  others: readonly ChainFacts[];
  wrongNetwork: WrongNetwork;
  tokenMismatch: readonly TokenMismatch[];
  /**
   * Whether each Safe singleton a Safe elsewhere runs has code on the target chain, by lowercase
   * address, as read there; a singleton not in it was not read (or could not be).
   */
  singletonsHere?: Readonly<Record<string, boolean>>;
};

// A reason names its chain only when it is about exactly one.
function onlyChain(names: readonly ChainName[]): { chain?: ChainName } {
  return names.length === 1 && names[0] ? { chain: names[0] } : {};
}

/** A smart account whose vendor's factory deploys the same address on every chain. */
function isSameAddressAccount(facts: ChainFacts): boolean {
  if (facts.kind !== "smart-account" || !facts.implementation) return false;
  return findAccountImplementation(facts.implementation)?.sameAddressOnEveryChain === true;
}

/** A plain contract that passed a simulated deposit on in full (an exchange deposit address). */
function isDepositForwarder(facts: ChainFacts): boolean {
  return facts.kind === "contract" && facts.receiveSimulation?.outcome === "forwarded";
}

/**
 * An EIP-7702 account whose delegate is a known sweeper or passed a simulated deposit on: the
 * signature of a stolen key (the rule targetFindings applies on the target chain).
 */
function isSweptAccount(facts: ChainFacts): boolean {
  if (facts.status !== "ok" || facts.kind !== "eip7702-delegated") return false;
  return (
    facts.delegateAssessment?.category === "sweeper" ||
    facts.receiveSimulation?.outcome === "forwarded"
  );
}

/**
 * The deep-check rules that compare the target chain with the other four.
 * @example crossChainFindings({ address, target, others, wrongNetwork, tokenMismatch })[0]?.code // "wrong_network"
 */
export function crossChainFindings({
  address,
  target,
  others,
  wrongNetwork,
  tokenMismatch,
  singletonsHere,
}: CrossChainInput): Finding[] {
  const here = target.name;
  const hereLabel = chains[here].label;
  const findings: Finding[] = [];
  const readableOthers = others.filter((facts) => facts.status === "ok");

  for (const facts of others) {
    if (facts.status === "ok") continue;
    const there = chains[facts.name].label;
    findings.push({
      code: "other_chain_unavailable",
      level: "caution",
      chain: facts.name,
      message: `Could not read ${there} (${facts.error ?? "unknown error"}): activity there cannot be ruled out.`,
      headline: `Could not read ${there}`,
      next: `Run the deep check again: ${there} could not be read, so a wrong network cannot be ruled out.`,
    });
  }

  for (const facts of readableOthers) {
    const unknown = unknownFacts(facts);
    if (unknown.length === 0) continue;
    const there = chains[facts.name].label;
    findings.push({
      code: "other_chain_facts_unknown",
      level: "caution",
      chain: facts.name,
      message: `Part of ${there}'s answer could not be read: ${joinNames(unknown)} unknown there.`,
      headline: `Not fully read on ${there}`,
      next: `Run the deep check again: ${joinNames(unknown)} could not be read on ${there}.`,
    });
  }

  // A Safe or contract account lives at its address only where it was deployed. An account from
  // a factory that deploys the same address everywhere can be deployed here by its owner; a Safe
  // perhaps, never where the singleton its proxy runs is missing (a Safe made from a singleton
  // missing here cannot be made here, and its address may be taken by whoever deploys something
  // else there first); any other contract's address may belong to nobody here.
  const safeHere = (facts: ChainFacts) => {
    const singleton = facts.safe?.singleton;
    return singleton ? singletonsHere?.[singleton.toLowerCase()] : undefined;
  };
  const isSafe = (facts: ChainFacts) => facts.kind === "safe" && !isSafeLookalike(facts);
  const strandedSafeChains = readableOthers
    .filter((facts) => isSafe(facts) && safeHere(facts) === false)
    .map((facts) => facts.name);
  const recoverableChains = readableOthers
    .filter((facts) => (isSafe(facts) && safeHere(facts) !== false) || isSameAddressAccount(facts))
    .map((facts) => facts.name);
  // A deposit forwarder elsewhere is an exchange's deposit address for that chain: sending here is
  // the wrong network, not a send to somebody's unknown contract.
  // A registry protocol contract elsewhere (a bridge passes a deposit on too) is no deposit
  // address and no one's contract: the target's own findings name it (protocol_contract_elsewhere).
  // Nor is a known sweeper elsewhere, which forwards deposits too: it is a thief's contract, never
  // "the network this deposit address was made for" (sweeper_contract_elsewhere names it).
  const unnamed = readableOthers.filter((facts) => {
    if (facts.knownSweeper) return false;
    const protocol = findProtocolContract(facts.name, address);
    return protocol === undefined || protocol.chains.includes(here);
  });
  const forwarderChains = unnamed.filter(isDepositForwarder).map((facts) => facts.name);
  const contractChains = unnamed
    .filter(
      (facts) =>
        (facts.kind === "contract" ||
          facts.kind === "smart-account" ||
          facts.kind === "nft" ||
          isSafeLookalike(facts)) &&
        !isSameAddressAccount(facts) &&
        !isDepositForwarder(facts),
    )
    .map((facts) => facts.name);
  if (
    target.status === "ok" &&
    target.isContract === false &&
    target.kind !== "eip7702-delegated"
  ) {
    if (recoverableChains.length > 0) {
      const where = chainLabels(recoverableChains);
      const first = recoverableChains[0];
      const firstLabel = chainLabels(recoverableChains.slice(0, 1));
      const elsewhere = readableOthers.find((facts) => facts.name === first);
      const what = elsewhere ? plainKind(elsewhere) : "Safe shared wallet";
      const safes = readableOthers.filter(
        (facts) => recoverableChains.includes(facts.name) && isSafe(facts),
      );
      // A Safe's address on another chain follows from the factory, the way it was created and
      // the chain, none of which its state shows: one made with the chain id in its salt, or by
      // plain CREATE (the factory's nonce, reachable by anyone), can never be re-made by its
      // owners at this address. Only a same-address factory's account can be said to be.
      const unconfirmed = safes.some((facts) => safeHere(facts) === undefined)
        ? `, and presend could not confirm that the Safe code it runs is deployed on ${hereLabel}`
        : "";
      const can =
        safes.length === 0
          ? `the owner can deploy the same account on ${hereLabel} first; ask them to, or send on ${firstLabel}`
          : `its owners may be able to create it at this address on ${hereLabel}, but only if it was made in a way that gives the same address on every network, which presend cannot see from the chain${unconfirmed}. Until it exists on ${hereLabel}, nobody may control what is sent there: ask them to create it on ${hereLabel} and check again before sending, or send on ${firstLabel}`;
      findings.push({
        code: "safe_elsewhere",
        level: "warn",
        ...onlyChain(recoverableChains),
        message: `This address is a ${what} on ${where} but has no code on ${hereLabel}: ${can}.`,
        headline: `${what} on ${where}, not deployed on ${hereLabel}`,
        next:
          safes.length === 0
            ? `Ask the recipient to deploy their account on ${hereLabel} first, or send on ${firstLabel}.`
            : `Ask the recipient to create their Safe on ${hereLabel} and check again before sending, or send on ${firstLabel}.`,
      });
    }
    if (strandedSafeChains.length > 0) {
      const where = chainLabels(strandedSafeChains);
      findings.push({
        code: "safe_not_deployable",
        level: "danger",
        ...onlyChain(strandedSafeChains),
        message: `This address is a Safe on ${where}, but the Safe code it runs (its singleton) is not deployed on ${hereLabel}: its owners cannot create this Safe at this address on ${hereLabel}, so funds sent there may be stuck for good, or taken by whoever manages to deploy something else at it.`,
        headline: `Safe on ${where} that cannot be created on ${hereLabel}`,
        next: `Do not send on ${hereLabel}: send on ${chainLabels(strandedSafeChains.slice(0, 1))}, or ask the recipient for an address that works on ${hereLabel}.`,
      });
    }
    if (forwarderChains.length > 0) {
      const where = chainLabels(forwarderChains);
      findings.push({
        code: "deposit_address_elsewhere",
        level: "warn",
        ...onlyChain(forwarderChains),
        message: `This address is a deposit address (it forwards deposits) on ${where} but has no code on ${hereLabel}: it is meant for ${where}, so ${hereLabel} is the wrong network.`,
        headline: `Deposit address on ${where}, not on ${hereLabel}: wrong network`,
        next: `Send on ${chainLabels(forwarderChains.slice(0, 1))}, the network this deposit address was made for, or ask the exchange for a ${hereLabel} address.`,
      });
    }
    if (contractChains.length > 0) {
      const where = chainLabels(contractChains);
      findings.push({
        code: "contract_elsewhere",
        level: "danger",
        ...onlyChain(contractChains),
        message: `This address is a contract on ${where} but has no code on ${hereLabel}: whoever controls it there may not control it here; funds may be unrecoverable.`,
        headline: `Contract on ${where}, but no code on ${hereLabel}`,
        next: `Do not send on ${hereLabel}: ask the recipient for an address that works on ${hereLabel}.`,
      });
    }
  }
  if (
    target.status !== "ok" &&
    recoverableChains.length + strandedSafeChains.length + contractChains.length > 0
  ) {
    const where = chainLabels([...recoverableChains, ...strandedSafeChains, ...contractChains]);
    findings.push({
      code: "contract_elsewhere_unverified",
      level: "warn",
      message: `This address is a contract wallet on ${where}; ${hereLabel} could not be read, so it is unknown whether it exists there.`,
      headline: `Contract wallet on ${where}; ${hereLabel} unverified`,
      next: `Do not send on ${hereLabel} until a check confirms the wallet exists there.`,
    });
  }

  findings.push(...sameAddressSafeFindings(target, readableOthers));

  // A sweeper delegation is signed by the account's own key, so that key is in a thief's hands on
  // every chain: whoever holds it takes what arrives here too, and a chain-agnostic authorization
  // (chain id 0) can be replayed here by anyone. The target's own delegation is its own reason.
  const sweptChains = readableOthers.filter(isSweptAccount).map((facts) => facts.name);
  if (sweptChains.length > 0 && !isSweptAccount(target)) {
    const where = chainLabels(sweptChains);
    findings.push({
      code: "eip7702_sweeper_elsewhere",
      level: "danger",
      ...onlyChain(sweptChains),
      message: `On ${where} this wallet has handed control to a contract that passes anything sent to it straight on to someone else, so its key is likely stolen: whoever holds it can take what is sent on ${hereLabel} too.`,
      headline: `Key likely stolen: deposits are taken on arrival on ${where}`,
      next: "Do not send on any network: warn the owner that their key is likely stolen.",
    });
  }

  if (wrongNetwork.flagged) {
    const where = chainLabels(wrongNetwork.activeOn);
    findings.push({
      code: "wrong_network",
      level: "warn",
      chain: here,
      message: `No code, no outgoing transactions and no ${joinNames(readBalances(target).read, "or")} balance on ${hereLabel}, but this address is active on ${where}.`,
      headline: `Active on ${where}, not on ${hereLabel}`,
      next: `Ask the recipient: this address is active on ${where}, not ${hereLabel}.`,
    });
  }

  for (const mismatch of tokenMismatch) {
    const targetIsToken = target.kind === "token" || target.kind === "nft";
    const finding = tokenMismatchFinding(mismatch, address, here, targetIsToken);
    if (finding) findings.push(finding);
  }
  return findings;
}

function tokenMismatchFinding(
  mismatch: TokenMismatch,
  address: string,
  here: ChainName,
  targetIsToken: boolean,
): Finding | null {
  const hereLabel = chains[here].label;
  switch (mismatch.code) {
    case "token_contract": {
      // The target chain, known stablecoins and listed tokens already have their own, more
      // precise finding (unless a token here names itself: then listed ones elsewhere are news).
      const special = classifySpecialAddress(address);
      const listed =
        targetIsToken || special?.kind === "stablecoin"
          ? []
          : findKnownTokenChains(address).map((entry) => entry.chain);
      const elsewhere = mismatch.chains.filter(
        (name) => name !== here && !special?.chains?.includes(name) && !listed.includes(name),
      );
      if (elsewhere.length === 0) return null;
      const where = chainLabels(elsewhere);
      return {
        code: "token_contract_elsewhere",
        level: "danger",
        ...onlyChain(elsewhere),
        message: `This address is a token contract on ${where}: it is a token, not a wallet, and whoever gave it may have confused the two.`,
        headline: `Token contract on ${where}`,
        next: `Do not send: this address is a token contract on ${where}; ask the recipient for their wallet address.`,
      };
    }
    case "stablecoin_elsewhere": {
      const where = chainLabels(mismatch.chains);
      return {
        code: "stablecoin_elsewhere",
        level: "caution",
        ...onlyChain(mismatch.chains),
        message: mismatch.message,
        headline: `Holds stablecoins on ${where}, none on ${hereLabel}`,
        next: `Ask the recipient which chain they expect the stablecoin on: they hold it on ${where}, not ${hereLabel}.`,
      };
    }
    case "bridged_usdc": {
      // On the target chain the single-chain rule already raised this at caution.
      const elsewhere = mismatch.chains.filter((name) => name !== here);
      if (elsewhere.length === 0 || mismatch.chains.includes(here)) return null;
      return {
        code: "bridged_usdc_elsewhere",
        level: "ok",
        ...onlyChain(elsewhere),
        message: `Holds bridged rather than native USDC on ${chainLabels(elsewhere)}; this does not affect a send on ${hereLabel}.`,
        headline: `Bridged USDC on ${chainLabels(elsewhere)}`,
        next: `Send native USDC on ${hereLabel} unless the recipient asks otherwise.`,
      };
    }
  }
}
