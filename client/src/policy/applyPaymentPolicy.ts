import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import {
  type AttestationFailure,
  verifyAttestation,
} from "@presend/shared/attestation/verifyAttestation";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { PresendConfig } from "../createPresendConfig";
import { describeCause, refused } from "../outcomes";
import type { PinRecord } from "../PinStore";
import type { RefusalCode } from "../PresendResult";
import { checkRequirement } from "./checkRequirement";
import { followKeyRotation } from "./followKeyRotation";
import { verifyOffer } from "./verifyOffer";

export type PolicyDecision =
  | ReturnType<typeof refused>
  | {
      type: "accepted";
      /** The one requirement that may be paid: exact, USDC on Base, short validity, attested. */
      requirement: PaymentRequirements;
      /** The key reports and receipts must be signed with (pinned now or earlier). */
      pin: PinRecord;
      pinnedNow: boolean;
    };

/**
 * The payment policy, fail closed, decided before anything is signed: the requirement (scheme
 * exact, Base, USDC, validity), the payee attestation verified against the key pinned for the
 * origin (pinned on first use, or followed from the pinned key through its rotation statements)
 * and matched to payTo, price, network and asset, the signed offer, and the caller's maximum
 * price. A key seen for the first time is pinned only once all pass.
 * @example const decision = await applyPaymentPolicy(config, "/check", paymentRequired);
 */
export async function applyPaymentPolicy(
  config: PresendConfig,
  route: "/check" | "/deep",
  paymentRequired: PaymentRequired,
): Promise<PolicyDecision> {
  const picked = checkRequirement(paymentRequired.accepts);
  if (picked.type === "refused") return refused(picked.code, picked.message);
  const { requirement } = picked;
  const attestation = paymentRequired.extensions?.[attestationExtensionKey] as
    | { info?: unknown }
    | undefined;
  if (attestation?.info === undefined) {
    return refused(
      "attestation_missing",
      "The payment challenge carries no payee attestation; refusing to pay an unattested payee.",
    );
  }
  let pinned: PinRecord | undefined;
  try {
    pinned = await config.pinStore.get(config.origin);
  } catch (cause) {
    return refused(
      "pin_store_unreadable",
      `The pinned keys cannot be read: ${describeCause(cause)}`,
    );
  }
  const verify = (pin: PinRecord | undefined) =>
    verifyAttestation({
      block: attestation.info,
      route,
      payTo: requirement.payTo,
      amount: requirement.amount,
      network: requirement.network,
      asset: requirement.asset,
      now: Math.floor(config.now().getTime() / 1000),
      ...(pin ? { pinnedThumbprint: pin.fingerprint } : {}),
    });
  let attested = await verify(pinned);
  if (
    pinned &&
    attested.type === "invalid" &&
    attested.reason === "key_changed" &&
    attested.thumbprint !== undefined
  ) {
    // A rotation is followed only as far as the pinned key vouched for it, statement by statement.
    let followed: Awaited<ReturnType<typeof followKeyRotation>>;
    try {
      followed = await followKeyRotation(config, pinned, { thumbprint: attested.thumbprint });
    } catch (cause) {
      return pinNotKept(cause);
    }
    if (followed.type === "refused") {
      return refused(
        "key_changed",
        `${attested.message} ${followed.message} If the operator really rotated the key without one, remove the pin for ${config.origin} to trust the new key.`,
      );
    }
    pinned = followed.pin;
    attested = await verify(pinned);
  }
  if (attested.type === "invalid") {
    return refused(attestationRefusal(attested.reason), attested.message);
  }
  const offer = await verifyOffer(paymentRequired, requirement, attested.block.key, config.now());
  if (offer !== null) return refused("offer_invalid", offer);
  const amount = BigInt(requirement.amount);
  if (config.maxPrice !== undefined && amount > config.maxPrice) {
    return refused(
      "over_max_price",
      `${route} costs ${formatUsdc(amount)} in USDC, above the most you allow (${formatUsdc(config.maxPrice)}).`,
    );
  }
  if (pinned) return { type: "accepted", requirement, pin: pinned, pinnedNow: false };
  const pin: PinRecord = {
    jwk: attested.block.key,
    fingerprint: attested.thumbprint,
    pinnedAt: config.now().toISOString(),
    apiUrl: config.origin,
  };
  try {
    await config.pinStore.set(config.origin, pin);
  } catch (cause) {
    return pinNotKept(cause);
  }
  config.emit({
    type: "pinned",
    origin: config.origin,
    kid: pin.jwk.kid,
    fingerprint: pin.fingerprint,
  });
  return { type: "accepted", requirement, pin, pinnedNow: true };
}

/**
 * A key that cannot be pinned (a read-only or full config directory, say) is not paid to: the
 * report's signature is verified, now and when it is fetched again, with the pinned key, so a
 * payment made without the pin kept could not be proven later, and the next run would trust
 * whatever key it is shown.
 */
function pinNotKept(cause: unknown): PolicyDecision {
  return refused(
    "pin_store_unreadable",
    `The attestation key cannot be pinned (the pinned keys cannot be written: ${describeCause(cause)}); nothing is paid until it can.`,
  );
}

/** The attestation's failures the payer can act on keep their name; the rest are "invalid". */
function attestationRefusal(reason: AttestationFailure): RefusalCode {
  switch (reason) {
    case "key_changed":
    case "payto_mismatch":
    case "price_above_attested":
    case "network_mismatch":
    case "asset_mismatch":
      return reason;
    default:
      return "attestation_invalid";
  }
}
