import { classifySpecialAddress } from "../address/specialAddresses";
import type { Balance, ChainFacts, TokenMismatch } from "../api/report";
import { type ChainName, chainNames, chains } from "../chains/chains";
import { chainLabels } from "./chainLabels";
import { isPositiveBalance } from "./isPositiveBalance";
import { joinNames } from "./joinNames";

export type TokenMismatchInput = {
  address: string;
  target: ChainFacts;
  others: readonly ChainFacts[];
};

function heldStablecoins(facts: ChainFacts): string[] {
  const held: (Balance | null | undefined)[] = [facts.usdc, facts.usdt, facts.usdcBridged];
  return held.filter(isPositiveBalance).map((balance) => balance?.symbol ?? "");
}

function holdsOnlyBridgedUsdc(facts: ChainFacts): boolean {
  return isPositiveBalance(facts.usdcBridged) && !isPositiveBalance(facts.usdc);
}

/**
 * Token-mismatch flags: token contract somewhere, stablecoins only elsewhere, bridged USDC.
 * @example findTokenMismatches({ address, target, others })[0]?.code // "stablecoin_elsewhere"
 */
export function findTokenMismatches({
  address,
  target,
  others,
}: TokenMismatchInput): TokenMismatch[] {
  const readable = [target, ...others].filter((facts) => facts.status === "ok");
  // Target first, then the order the caller gave, then chains known only from the address book.
  const order: ChainName[] = [
    ...new Set([target.name, ...others.map((facts) => facts.name), ...chainNames]),
  ];
  const byOrder = (names: Set<ChainName>) => order.filter((name) => names.has(name));
  const mismatches: TokenMismatch[] = [];

  const special = classifySpecialAddress(address);
  const tokenChains = byOrder(
    new Set([
      ...readable.filter((facts) => facts.kind === "token").map((facts) => facts.name),
      ...(special?.kind === "stablecoin" ? (special.chains ?? []) : []),
    ]),
  );
  if (tokenChains.length > 0) {
    mismatches.push({
      code: "token_contract",
      message: `This address is a token contract on ${chainLabels(tokenChains)}, not a wallet.`,
      chains: tokenChains,
    });
  }

  if (target.status === "ok" && heldStablecoins(target).length === 0) {
    const holders = readable.filter(
      (facts) => facts.name !== target.name && heldStablecoins(facts).length > 0,
    );
    if (holders.length > 0) {
      const holdings = holders.map(
        (facts) => `${joinNames(heldStablecoins(facts))} on ${chains[facts.name].label}`,
      );
      mismatches.push({
        code: "stablecoin_elsewhere",
        message: `Holds ${joinNames(holdings)}, but no stablecoin on ${chains[target.name].label}.`,
        chains: holders.map((facts) => facts.name),
      });
    }
  }

  const bridgedHolders = readable.filter(holdsOnlyBridgedUsdc);
  if (bridgedHolders.length > 0) {
    const holdings = bridgedHolders.map(
      (facts) => `${facts.usdcBridged?.symbol ?? "bridged USDC"} on ${chains[facts.name].label}`,
    );
    mismatches.push({
      code: "bridged_usdc",
      message: `Holds bridged USDC (${joinNames(holdings)}) but no native USDC there.`,
      chains: byOrder(new Set(bridgedHolders.map((facts) => facts.name))),
    });
  }
  return mismatches;
}
