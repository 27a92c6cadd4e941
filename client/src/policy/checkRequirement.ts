import { addressPattern } from "@presend/shared/address/addressPattern";
import { chains } from "@presend/shared/chains/chains";
import type { PaymentRequirements } from "@x402/core/types";
import type { RefusalCode } from "../PresendResult";

/** presend is paid in USDC on Base, nothing else. */
export const baseNetwork = chains.base.caip2;
export const baseUsdc = chains.base.usdc.address;

/**
 * Longest validity a client signs: x402's exact scheme makes the authorization valid for
 * maxTimeoutSeconds, and a long-lived one can be settled by whoever holds it, long after.
 */
export const maxValiditySeconds = 300;

export type RequirementCheck =
  | { type: "accepted"; requirement: PaymentRequirements }
  | { type: "refused"; code: RefusalCode; message: string };

/**
 * Picks the one requirement the client may pay from a 402's accepts: scheme exact, USDC on
 * Base, a validity of at most five minutes, an EIP-3009 transfer. Anything else is refused by name.
 * @example const r = checkRequirement(paymentRequired.accepts);
 */
export function checkRequirement(accepts: readonly PaymentRequirements[]): RequirementCheck {
  const exact = accepts.filter((r) => r.scheme === "exact");
  if (exact.length === 0) {
    return {
      type: "refused",
      code: "unexpected_challenge",
      message: "The server offers no x402 exact payment.",
    };
  }
  const onBase = exact.filter((r) => r.network === baseNetwork);
  if (onBase.length === 0) {
    return {
      type: "refused",
      code: "network_mismatch",
      message: `The server asks for payment on ${exact.map((r) => r.network).join(", ")}; presend is paid on Base (${baseNetwork}) only.`,
    };
  }
  const inUsdc = onBase.filter((r) => r.asset.toLowerCase() === baseUsdc.toLowerCase());
  const requirement = inUsdc[0];
  if (requirement === undefined) {
    return {
      type: "refused",
      code: "asset_mismatch",
      message: `The server asks for payment in ${onBase.map((r) => r.asset).join(", ")}; presend is paid in Base USDC (${baseUsdc}) only.`,
    };
  }
  if (
    !Number.isInteger(requirement.maxTimeoutSeconds) ||
    requirement.maxTimeoutSeconds <= 0 ||
    requirement.maxTimeoutSeconds > maxValiditySeconds
  ) {
    return {
      type: "refused",
      code: "validity_too_long",
      message: `The server asks for an authorization valid for ${requirement.maxTimeoutSeconds} s; this client signs at most ${maxValiditySeconds} s.`,
    };
  }
  // The exact scheme pays through Permit2 (an approval, maybe an EIP-2612 permit) when the offer
  // names another transfer method: signatures the spend cap does not see. Only the EIP-3009
  // transfer (the scheme's default) is signed.
  const method = requirement.extra?.assetTransferMethod;
  if (method !== undefined && method !== "eip3009") {
    return {
      type: "refused",
      code: "transfer_method_mismatch",
      message: `The server asks for payment by ${String(method)}; presend pays only by EIP-3009 (eip3009).`,
    };
  }
  if (!/^\d+$/.test(requirement.amount) || !addressPattern.test(requirement.payTo)) {
    return {
      type: "refused",
      code: "unexpected_challenge",
      message: "The payment requirement has no valid amount or payee.",
    };
  }
  return { type: "accepted", requirement };
}
