import { checksumStatus } from "@presend/shared/address/checksumStatus";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { PaymentRequiredV2Schema } from "@x402/core/schemas";
import type { PaymentRequired } from "@x402/core/types";
import { isValidPaymentId } from "@x402/extensions/payment-identifier";
import type { Address } from "viem";
import { errorOf, isRedirect } from "../answers/errorOf";
import { reportSubjectMismatch } from "../answers/reportSubjectMismatch";
import { checkChannelRequirement } from "../channels/checkChannelRequirement";
import type { ChannelPayer } from "../channels/createChannelPayer";
import type { PresendConfig } from "../createPresendConfig";
import { payExact } from "../exact/payExact";
import { describeCause, notCharged, refused } from "../outcomes";
import type { PaidOutcome, PaidResult } from "../PresendResult";
import { applyPaymentPolicy } from "../policy/applyPaymentPolicy";
import { verifyOffer } from "../policy/verifyOffer";
import { signedInReread } from "../recovery/signedInReread";

export type CheckInput = {
  address: string;
  chain?: ChainName;
  /**
   * The sender (the account the money comes from): the check then reads its own payments on the
   * chain (address poisoning, first-time recipient). Same rules as `address`, not equal to it.
   */
  from?: string;
  /**
   * The x402 payment-identifier sent with the payment (16-128 of A-Z a-z 0-9 _ -; default: a
   * new one per call). Retrying a call with the same id and body gets the same report, charged
   * once; the same id with another body is refused (409 payment_id_conflict). A check given an
   * id pays with exact even when a channel is configured: the id is an exact payment's.
   */
  paymentId?: string;
};

export type PaidRoute = "/check" | "/deep";

/**
 * One paid check (POST /check, or /deep for five chains): the input checked locally, the 402
 * challenge read, the payment policy applied (nothing is signed before it passes), then the
 * report read again signed in (with `signIn`), paid over a channel (with `channel`, when the
 * server offers one on the attested terms) or paid with an exact authorization. `charged` is
 * false only on proof; the payment id sent is returned for a retry that is charged once.
 * @example const result = await paidCheck<Report>(config, "/check", { address });
 */
export async function paidCheck<R extends Report | DeepReport>(
  config: PresendConfig,
  route: PaidRoute,
  input: CheckInput,
): Promise<PaidResult<R>> {
  const sent: { paymentId: string | null } = { paymentId: null };
  const outcome = await pay<R>(config, route, input, sent);
  return { ...aboutWhatWasAsked(outcome, input), paymentId: sent.paymentId };
}

/**
 * A verified report shown only when it is about the address, chain and sender asked: however it
 * came (the paid answer, a channel's, one read again signed in, or /receipts), its signature
 * binds it to a payment, not to this request. Another one is "forged", charged as the payment was.
 */
function aboutWhatWasAsked<R extends Report | DeepReport>(
  outcome: PaidOutcome<R>,
  input: CheckInput,
): PaidOutcome<R> {
  if (outcome.type !== "report") return outcome;
  const mismatch = reportSubjectMismatch(outcome.report, {
    address: input.address,
    chain: input.chain ?? "base",
    ...(input.from !== undefined && { from: input.from }),
  });
  if (mismatch === null) return outcome;
  return {
    type: "forged",
    charged: outcome.charged,
    settlement: outcome.settlement,
    report: outcome.report,
    message: `${mismatch} It is not the report of this check.`,
  };
}

async function pay<R extends Report | DeepReport>(
  config: PresendConfig,
  route: PaidRoute,
  input: CheckInput,
  sent: { paymentId: string | null },
): Promise<PaidOutcome<R>> {
  const refusal = refuseInput(input);
  if (refusal !== null) return refusal;
  const body = JSON.stringify({
    address: input.address.trim(),
    chain: input.chain ?? "base",
    ...(input.from !== undefined && { from: input.from.trim() }),
  });
  const post = (headers: Record<string, string> = {}) =>
    config.send(route, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  // 1. The challenge. Nothing is signed yet, so every failure here costs nothing.
  let challenge: Response;
  try {
    challenge = await post();
  } catch (cause) {
    return notCharged("unreachable", null, `Cannot reach ${config.base}: ${describeCause(cause)}`);
  }
  if (isRedirect(challenge)) {
    return refused(
      "redirect",
      `${config.base}${route} answered with a redirect; refusing to follow it with a payment.`,
    );
  }
  if (challenge.status !== 402) {
    const error = await errorOf(challenge);
    return notCharged(error.code, challenge.status, error.message);
  }
  let paymentRequired: PaymentRequired;
  try {
    const challengeBody: unknown = await challenge.json().catch(() => undefined);
    paymentRequired = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      challengeBody,
    );
  } catch (cause) {
    return refused("unexpected_challenge", `Unreadable payment challenge: ${describeCause(cause)}`);
  }
  // The package decodes the challenge without checking its shape: one without the x402 v2 fields
  // (no accepts list, say) would fail the policy with a TypeError instead of a refusal.
  if (!PaymentRequiredV2Schema.safeParse(paymentRequired).success) {
    return refused(
      "unexpected_challenge",
      "The server's payment challenge is not an x402 v2 one (PaymentRequired).",
    );
  }

  // 2. The policy: requirement, attestation, pinned key, offer, price.
  const decision = await applyPaymentPolicy(config, route, paymentRequired);
  if (decision.type === "refused") return decision;
  const { requirement, pin, pinnedNow } = decision;
  const payer = config.signer();
  if (payer === null) return refused("no_signer", "No paying key is configured.");
  if (config.signIn) {
    const again = await signedInReread<R>(config, {
      route,
      asked: {
        address: input.address,
        chain: input.chain ?? "base",
        ...(input.from !== undefined && { from: input.from }),
      },
      paymentRequired,
      requirement,
      pin,
      post,
    });
    if (again !== null) return again;
  }

  // 3. Pay: over a channel when one is configured and offered on the attested terms. A payment
  // id given to retry names an exact payment (a channel's result carries none): only an exact
  // payment with it is answered from that payment's record; a voucher would be charged anew.
  if (config.channel && input.paymentId === undefined) {
    const offered = checkChannelRequirement(paymentRequired.accepts, requirement);
    if (offered.type === "refused") return refused(offered.code, offered.message);
    if (offered.type === "accepted") {
      const channelOffer = await verifyOffer(
        paymentRequired,
        offered.requirement,
        pin.jwk,
        config.now(),
      );
      if (channelOffer !== null) return refused("offer_invalid", channelOffer);
      config.emit({
        type: "verified",
        amount: requirement.amount,
        payTo: requirement.payTo as Address,
        fingerprint: pin.fingerprint,
        pinnedNow,
      });
      let channelPayer: ChannelPayer | null;
      try {
        channelPayer = await config.channelPayer();
      } catch (cause) {
        return notCharged("signing_failed", null, `No paying key: ${describeCause(cause)}`);
      }
      if (channelPayer === null) return refused("no_signer", "No paying key is configured.");
      return channelPayer.pay<R>({
        paymentRequired,
        requirement: offered.requirement,
        route,
        pin,
        post,
      });
    }
  }
  return payExact<R>(
    config,
    {
      route,
      paymentRequired,
      requirement,
      pin,
      pinnedNow,
      payer,
      paymentId: input.paymentId,
      post,
    },
    sent,
  );
}

/** The input's own faults, refused before anything is sent. */
function refuseInput(input: CheckInput): ReturnType<typeof refused> | null {
  const local = checksumStatus(input.address);
  if (!local.valid) return refused("invalid_address", local.checksum.message);
  if (input.from !== undefined) {
    const sender = checksumStatus(input.from);
    if (!sender.valid) return refused("invalid_from", `from: ${sender.checksum.message}`);
    if (input.from.trim().toLowerCase() === input.address.trim().toLowerCase()) {
      return refused("from_equals_address", "from is the address being checked; leave it out.");
    }
  }
  // An id the server cannot read would be ignored there, and the retry charged again.
  if (input.paymentId !== undefined && !isValidPaymentId(input.paymentId)) {
    return refused(
      "invalid_payment_id",
      `The payment id must be 16 to 128 of A-Z a-z 0-9 _ -, got "${input.paymentId.slice(0, 40)}".`,
    );
  }
  return null;
}
