import { classifySpecialAddress } from "../address/specialAddresses";
import type { ChainFacts, TokenMismatch } from "../api/report";
import type { ChainName } from "../chains/chains";
import type { WrongNetwork } from "./detectWrongNetwork";
import { joinNames } from "./joinNames";
import type { Finding } from "./summarizeFindings";

export type CrossChainInput = {
  address: string;
  target: ChainFacts;
  others: readonly ChainFacts[];
  wrongNetwork: WrongNetwork;
  tokenMismatch: readonly TokenMismatch[];
};

// A reason names its chain only when it is about exactly one.
function onlyChain(names: readonly ChainName[]): { chain?: ChainName } {
  return names.length === 1 && names[0] ? { chain: names[0] } : {};
}

function namesOfKind(facts: readonly ChainFacts[], kind: ChainFacts["kind"]): ChainName[] {
  return facts.filter((chain) => chain.kind === kind).map((chain) => chain.name);
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
}: CrossChainInput): Finding[] {
  const here = target.name;
  const findings: Finding[] = [];
  const readableOthers = others.filter((facts) => facts.status === "ok");

  for (const facts of others) {
    if (facts.status === "ok") continue;
    findings.push({
      code: "other_chain_unavailable",
      level: "caution",
      chain: facts.name,
      message: `Could not read ${facts.name} (${facts.error ?? "unknown error"}): activity there cannot be ruled out.`,
      headline: `Could not read ${facts.name}`,
      next: `Run the deep check again: ${facts.name} could not be read, so a wrong network cannot be ruled out.`,
    });
  }

  // A Safe or contract wallet lives at its address only where it was deployed: elsewhere,
  // nobody may be able to claim what is sent to the same address.
  const safeChains = namesOfKind(readableOthers, "safe");
  const contractChains = namesOfKind(readableOthers, "contract");
  if (target.status === "ok" && target.isContract === false) {
    if (safeChains.length > 0) {
      const where = joinNames(safeChains);
      findings.push({
        code: "safe_elsewhere",
        level: "danger",
        ...onlyChain(safeChains),
        message: `This address is a Safe on ${where} but has no code on ${here}: its owners control it on ${here} only if the same Safe gets deployed there; funds may be unrecoverable.`,
        headline: `Safe on ${where}, but it does not exist on ${here}`,
        next: `Do not send on ${here}: ask the recipient for an address that exists on ${here}.`,
      });
    }
    if (contractChains.length > 0) {
      const where = joinNames(contractChains);
      findings.push({
        code: "contract_elsewhere",
        level: "danger",
        ...onlyChain(contractChains),
        message: `This address is a contract on ${where} but has no code on ${here}: whoever controls it there may not control it here; funds may be unrecoverable.`,
        headline: `Contract on ${where}, but no code on ${here}`,
        next: `Do not send on ${here}: ask the recipient for an address that works on ${here}.`,
      });
    }
  }
  if (target.status !== "ok" && safeChains.length + contractChains.length > 0) {
    const where = joinNames([...safeChains, ...contractChains]);
    findings.push({
      code: "contract_elsewhere_unverified",
      level: "warn",
      message: `This address is a contract wallet on ${where}; ${here} could not be read, so it is unknown whether it exists there.`,
      headline: `Contract wallet on ${where}; ${here} unverified`,
      next: `Do not send on ${here} until a check confirms the wallet exists there.`,
    });
  }

  if (wrongNetwork.flagged) {
    const where = joinNames(wrongNetwork.activeOn);
    findings.push({
      code: "wrong_network",
      level: "warn",
      chain: here,
      message: `No code, no transactions and no balances on ${here}, but this address is active on ${where}.`,
      headline: `Active on ${where}, not on ${here}`,
      next: `Ask the recipient: this address is active on ${where}, not ${here}.`,
    });
  }

  for (const mismatch of tokenMismatch) {
    const finding = tokenMismatchFinding(mismatch, address, here);
    if (finding) findings.push(finding);
  }
  return findings;
}

function tokenMismatchFinding(
  mismatch: TokenMismatch,
  address: string,
  here: ChainName,
): Finding | null {
  switch (mismatch.code) {
    case "token_contract": {
      // The target chain and known stablecoins already have their own, more precise finding.
      const special = classifySpecialAddress(address);
      const elsewhere = mismatch.chains.filter(
        (name) => name !== here && !special?.chains?.includes(name),
      );
      if (elsewhere.length === 0) return null;
      const where = joinNames(elsewhere);
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
      const where = joinNames(mismatch.chains);
      return {
        code: "stablecoin_elsewhere",
        level: "caution",
        ...onlyChain(mismatch.chains),
        message: mismatch.message,
        headline: `Holds stablecoins on ${where}, none on ${here}`,
        next: `Ask the recipient which chain they expect the stablecoin on: they hold it on ${where}, not ${here}.`,
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
        message: `Holds bridged rather than native USDC on ${joinNames(elsewhere)}; this does not affect a send on ${here}.`,
        headline: `Bridged USDC on ${joinNames(elsewhere)}`,
        next: `Send native USDC on ${here} unless the recipient asks otherwise.`,
      };
    }
  }
}
