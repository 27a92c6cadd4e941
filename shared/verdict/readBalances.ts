import type { Balance, ChainFacts } from "../api/report";
import { isPositiveBalance } from "./isPositiveBalance";

export type ReadBalances = {
  /** Symbols of the balances that were read, in report order: native, USDC, USDT, bridged USDC. */
  read: string[];
  /** The read balances above zero. */
  held: string[];
};

/**
 * The balances a chain's facts really hold, by symbol, so a message names only what was read
 * (presend reads the native coin and the chain's stablecoins, not every token).
 * @example readBalances(facts).read // ["ETH", "USDC", "USDT", "USDbC"]
 */
export function readBalances(facts: ChainFacts): ReadBalances {
  const balances = [facts.native, facts.usdc, facts.usdt, facts.usdcBridged].filter(
    (balance): balance is Balance => balance !== null && balance !== undefined,
  );
  return {
    read: balances.map((balance) => balance.symbol),
    held: balances.filter(isPositiveBalance).map((balance) => balance.symbol),
  };
}
