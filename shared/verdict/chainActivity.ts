import type { ChainFacts } from "../api/report";
import { isPositiveBalance } from "./isPositiveBalance";

export type ChainActivity = {
  /** False when the chain could not be read: every other field is then unknown. */
  readable: boolean;
  hasCode: boolean | null;
  outgoingTxs: number | null;
  /** Any native, USDC, USDT or bridged USDC above zero. */
  holdsFunds: boolean;
  /** Never used here: no code, no outgoing transaction and no funds. */
  idle: boolean;
  /** Any sign of use here: code, an outgoing transaction or funds. */
  active: boolean;
};

/**
 * Summarizes whether an address is used on one chain, treating unreadable facts as unknown.
 * @example chainActivity(facts).active // true when the address sent, holds funds or has code
 */
export function chainActivity(facts: ChainFacts): ChainActivity {
  if (facts.status !== "ok") {
    return {
      readable: false,
      hasCode: null,
      outgoingTxs: null,
      holdsFunds: false,
      idle: false,
      active: false,
    };
  }
  const holdsFunds = [facts.native, facts.usdc, facts.usdt, facts.usdcBridged].some(
    isPositiveBalance,
  );
  const sent = facts.outgoingTxs !== null && facts.outgoingTxs > 0;
  return {
    readable: true,
    hasCode: facts.isContract,
    outgoingTxs: facts.outgoingTxs,
    holdsFunds,
    // Idle needs every fact known: a null nonce or code flag is not evidence of disuse.
    idle: facts.isContract === false && facts.outgoingTxs === 0 && !holdsFunds,
    active: sent || holdsFunds || facts.isContract === true,
  };
}
