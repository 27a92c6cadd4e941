import type { ChainFacts } from "../api/report";
import { deployedWalletKinds } from "./deployedWalletKinds";

const walletKinds: readonly ChainFacts["kind"][] = [
  "eoa",
  "eip7702-delegated",
  "safe",
  "smart-account",
];

/**
 * The parts of a readable chain's facts that could not be read, in words: null balances, a
 * wallet's unknown outgoing activity, an unknown kind, what a Safe or smart account does with a
 * deposit when the receive simulation did not run, and what the reader itself listed.
 * @example unknownFacts({ ...facts, usdt: null }) // ["the USDT balance"]
 */
export function unknownFacts(facts: ChainFacts): string[] {
  if (facts.status !== "ok") return [];
  const unknown: string[] = [];
  if (facts.kind === null) unknown.push("what the address is");
  if (facts.native === null) unknown.push("the native balance");
  if (facts.usdc === null) unknown.push("the USDC balance");
  if (facts.usdt === null) unknown.push("the USDT balance");
  // Only chains with a bridged USDC carry the key; null there means the read failed.
  if (facts.usdcBridged === null) unknown.push("the bridged USDC balance");
  if (walletKinds.includes(facts.kind) && facts.outgoingTxs === null) {
    unknown.push("the outgoing transaction count");
  }
  if (
    deployedWalletKinds.includes(facts.kind) &&
    facts.receiveSimulation?.outcome === "unavailable"
  ) {
    unknown.push("what it does with a deposit (the test deposit could not be run)");
  }
  for (const item of facts.unknowns ?? []) if (!unknown.includes(item)) unknown.push(item);
  return unknown;
}
