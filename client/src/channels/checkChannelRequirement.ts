import { addressPattern } from "@presend/shared/address/addressPattern";
import type { PaymentRequirements } from "@x402/core/types";
import type { RefusalCode } from "../PresendResult";
import { baseNetwork, baseUsdc, maxValiditySeconds } from "../policy/checkRequirement";

/**
 * The longest timed withdrawal a client lets a channel hold its deposit for (the escrow allows
 * 15 minutes to 30 days): the payer's escape hatch if the server never refunds.
 */
export const maxWithdrawDelaySeconds = 24 * 3_600;
/** The escrow's shortest withdrawal delay. */
export const minWithdrawDelaySeconds = 900;

export type ChannelRequirementCheck =
  | { type: "none" }
  | { type: "accepted"; requirement: PaymentRequirements }
  | { type: "refused"; code: RefusalCode; message: string };

const zeroAddress = /^0x0{40}$/;

/**
 * The `batch-settlement` requirement of a 402 a client may open or use a channel for, judged
 * against the `exact` requirement the attestation already vouched for: the same network (Base),
 * asset (USDC), payee and price, a validity of at most five minutes, a deposit by EIP-3009 (no
 * other transfer method), a receiver authorizer, and a withdrawal delay of at most a day. A channel offer that differs in any of these is refused
 * by name (fail closed, before anything is signed), not silently skipped; none offered is "none".
 * @example const channel = checkChannelRequirement(paymentRequired.accepts, exactRequirement);
 */
export function checkChannelRequirement(
  accepts: readonly PaymentRequirements[],
  attested: PaymentRequirements,
): ChannelRequirementCheck {
  const offered = accepts.filter((r) => r.scheme === "batch-settlement");
  const requirement = offered[0];
  if (requirement === undefined) return { type: "none" };
  const refuse = (code: RefusalCode, message: string): ChannelRequirementCheck => ({
    type: "refused",
    code,
    message,
  });
  if (offered.length > 1) {
    return refuse("unexpected_challenge", "The server offers more than one channel payment.");
  }
  if (requirement.network !== baseNetwork) {
    return refuse(
      "network_mismatch",
      `The server asks for a channel deposit on ${requirement.network}; presend is paid on Base (${baseNetwork}) only.`,
    );
  }
  if (requirement.asset.toLowerCase() !== baseUsdc.toLowerCase()) {
    return refuse(
      "asset_mismatch",
      `The server asks for a channel deposit in ${requirement.asset}; presend is paid in Base USDC (${baseUsdc}) only.`,
    );
  }
  if (requirement.payTo.toLowerCase() !== attested.payTo.toLowerCase()) {
    return refuse(
      "payto_mismatch",
      `The channel pays ${requirement.payTo}, not the attested payee ${attested.payTo}.`,
    );
  }
  if (requirement.amount !== attested.amount) {
    return refuse(
      "price_above_attested",
      `A check over the channel costs ${requirement.amount}, not the attested ${attested.amount} base units.`,
    );
  }
  if (
    !Number.isInteger(requirement.maxTimeoutSeconds) ||
    requirement.maxTimeoutSeconds <= 0 ||
    requirement.maxTimeoutSeconds > maxValiditySeconds
  ) {
    return refuse(
      "validity_too_long",
      `The channel asks for a validity of ${requirement.maxTimeoutSeconds} s; this client signs at most ${maxValiditySeconds} s.`,
    );
  }
  // The package deposits through Permit2 (and may then ask for an EIP-2612 permit or an approval)
  // when the offer names another transfer method: signatures the attestation never vouched for
  // and the spend cap does not see. Only the EIP-3009 deposit (the package's default) is signed.
  const method = requirement.extra?.assetTransferMethod;
  if (method !== undefined && method !== "eip3009") {
    return refuse(
      "transfer_method_mismatch",
      `The channel asks for a deposit by ${String(method)}; presend deposits only by EIP-3009 (eip3009).`,
    );
  }
  const authorizer = requirement.extra?.receiverAuthorizer;
  if (
    typeof authorizer !== "string" ||
    !addressPattern.test(authorizer) ||
    zeroAddress.test(authorizer)
  ) {
    return refuse("unexpected_challenge", "The channel offer names no receiver authorizer.");
  }
  const delay = requirement.extra?.withdrawDelay;
  if (
    typeof delay !== "number" ||
    !Number.isInteger(delay) ||
    delay < minWithdrawDelaySeconds ||
    delay > maxWithdrawDelaySeconds
  ) {
    return refuse(
      "unexpected_challenge",
      `The channel's withdrawal delay (${String(delay)} s) is outside ${minWithdrawDelaySeconds} s to ${maxWithdrawDelaySeconds} s: a deposit could be held too long.`,
    );
  }
  return { type: "accepted", requirement };
}
