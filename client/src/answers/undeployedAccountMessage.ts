import type { Address } from "viem";

/**
 * x402's refusals of a counterfactual smart account (exact, and a channel's deposit): its
 * ERC-6492 signature names a factory that deploys it, and the facilitator deploys accounts only
 * through factories it allows (presend's allows none), so the account cannot pay until it exists
 * on Base.
 */
export const undeployedAccountReasons: ReadonlySet<string> = new Set([
  "eip6492_factory_not_allowed",
  "invalid_batch_settlement_evm_eip6492_factory_not_allowed",
]);

/**
 * The sentence a payer reads when the server refused its payment because the paying smart
 * account is not deployed on Base yet, or null for any other refusal (the refusal keeps x402's
 * code). Only for an answer already proven to have charged nothing (a 402 before settlement): it
 * says so, and what to do, which x402's code does not.
 * @example undeployedAccountMessage("eip6492_factory_not_allowed", payer)
 */
export function undeployedAccountMessage(
  reason: string | undefined,
  payer: Address,
): string | null {
  if (reason === undefined || !undeployedAccountReasons.has(reason)) return null;
  return `The paying address ${payer} is a smart account that is not deployed on Base yet, and this server does not deploy accounts, so it cannot take the account's signature. The server refused the payment before settling it: nothing was charged. Make one transaction from this account on Base first (the wallet deploys it then), or pay from an account already on Base, then check again.`;
}
