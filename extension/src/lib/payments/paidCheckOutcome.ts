import { type PaidResult, type RefusalCode, undeployedAccountReasons } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import type { Address } from "viem";
import { MessageError } from "../messaging/MessageError";
import type { CheckOutcome, RefusalCode as ShownRefusal } from "../messaging/protocol";
import type { HistoryEntry, Route } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import type { PendingRecoveryLog } from "./createPendingRecovery";

export type OutcomeContext = {
  request: { route: Route; chain: ChainName };
  /** The check's pending recovery: forgotten on a report or a proven no-charge, kept otherwise. */
  recovery: PendingRecoveryLog;
  history: ValidatedItem<HistoryEntry[]>;
  historyLimit: number;
  /** The cap's refusal came from an unreadable ledger. */
  ledgerBroken: boolean;
  /** The wallet had shared its account, so a "rejected" is a declined payment, not a connect. */
  accountShared: boolean;
  /** Why the last signature failed, when the client's result does not carry it (a deposit). */
  signingError?: unknown;
  now: () => Date;
  randomId: () => string;
};

/**
 * What the card and the popup are told of a client result, in the extension's words, with its
 * effects on storage: a report goes into the history, the pending recovery is forgotten only on
 * a report or a proven no-charge, and a lost answer keeps it (with how the attempt ended).
 * @example const outcome = await paidCheckOutcome(await client.check(input), context)
 */
export async function paidCheckOutcome(
  result: PaidResult<Report | DeepReport>,
  context: OutcomeContext,
): Promise<CheckOutcome> {
  const { recovery, now } = context;
  // A report is filed before its recovery is forgotten: a background stopped in between leaves
  // one or the other, never neither (lostCheckOutcome reads "neither" as nothing paid).
  if (result.type === "not_charged" || result.type === "refused") {
    await recovery.settle("done");
  }
  switch (result.type) {
    case "report": {
      const entry: HistoryEntry = {
        id: context.randomId(),
        address: result.report.address as Address,
        chain: context.request.chain,
        route: context.request.route,
        level: result.report.verdict.level,
        headline: result.report.verdict.headline,
        checkedAt: now().toISOString(),
        amount: result.settlement.amount,
        payTo: result.settlement.payTo,
        // A channel's payment has no transaction of its own yet (its claim comes later).
        transaction: result.settlement.viaChannel ? null : result.settlement.transaction,
        report: result.report,
      };
      await context.history.update((list) => [entry, ...list].slice(0, context.historyLimit));
      await recovery.settle("done");
      return { type: "report", entry };
    }
    case "refused":
      return {
        type: "refused",
        code:
          context.ledgerBroken && result.code === "cap_reached"
            ? "ledger_unreadable"
            : shown(result.code),
        message: result.message,
      };
    case "not_charged": {
      const cause = result.cause ?? context.signingError;
      const overCap = walkCauses(
        cause,
        (e) => e instanceof PaymentError && e.code === "cap_reached",
      ) as PaymentError<"cap_reached"> | null;
      if (overCap) {
        return {
          type: "refused",
          code: context.ledgerBroken ? "ledger_unreadable" : "cap_reached",
          message: overCap.shortMessage,
        };
      }
      const unexpected = walkCauses(
        cause,
        (e) => e instanceof PaymentError && e.code === "unexpected_typed_data",
      ) as PaymentError<"unexpected_typed_data"> | null;
      if (unexpected) {
        // A signature presend never asks for was refused before the wallet saw it.
        return { type: "refused", code: "unexpected_challenge", message: unexpected.shortMessage };
      }
      const refusal = walletRefusal(cause, context.accountShared);
      if (refusal) return refusal;
      if (signedTooLate(result, cause)) {
        return {
          type: "failed",
          message: signedTooLateMessage,
          charged: false,
          code: "wallet_signature",
        };
      }
      if (badSignature(result, cause)) {
        return {
          type: "failed",
          message: badSignatureMessage,
          charged: false,
          code: "wallet_signature",
        };
      }
      if (result.status === 400) {
        return { type: "refused", code: "invalid_address", message: result.message };
      }
      if (result.status === 402 && result.code.endsWith("_insufficient_balance")) {
        // x402's reason for a payer short of USDC (exact: invalid_exact_evm_…, a channel's
        // deposit: invalid_batch_settlement_evm_…): what the person can do about it, not the code.
        // A deposit is several checks' worth: an account that holds less may still pay one check
        // at a time, which is a setting; an exact payment's remedy is USDC alone.
        const deposit = result.code.startsWith("invalid_batch_settlement_");
        return {
          type: "failed",
          message: deposit
            ? "Your wallet's account does not hold enough USDC on Base for the channel deposit. Set a smaller deposit in the settings (0 pays each check on its own), or add USDC on Base, then check again."
            : "Your wallet's account does not hold enough USDC on Base for this payment. Add USDC on Base to it, then check again.",
          charged: false,
        };
      }
      if (result.status === 402 && undeployedAccountReasons.has(result.code)) {
        // A smart account not yet on Base signs ERC-6492 (its signature names the factory that
        // would deploy it); the server's facilitator does not deploy accounts. Another try cannot
        // pay: the account must exist on Base first, or another account pay.
        return {
          type: "failed",
          message:
            "Your wallet's account is a smart account that is not deployed on Base yet, and presend's server cannot take a payment from it until it is. Make one transaction with this account on Base first (your wallet deploys it then), or connect an account already on Base, then check again.",
          charged: false,
          code: "payment_refused",
        };
      }
      if (result.status === null && result.code === "unreachable") {
        // No answer at all ("Failed to fetch"): the address in the settings is the usual cause.
        return {
          type: "failed",
          message: "presend's server could not be reached. Check the API address in the settings.",
          charged: false,
        };
      }
      if (result.status === 402) {
        // Any other refusal of the payment by x402 (a settlement the chain would revert, a
        // payment not for this resource): the server's reason once, and no settings offered,
        // since none mends it.
        return {
          type: "failed",
          message: `presend's server refused the payment before taking it (its reason: ${result.code}).`,
          charged: false,
          code: "payment_refused",
        };
      }
      return { type: "failed", message: result.message, charged: false };
    }
    case "unrecovered": {
      const message =
        result.charged === true
          ? "Paid, but the report did not arrive."
          : "The answer to the payment was lost.";
      const recoveryId = await recovery.settle({
        transaction: result.settlement?.viaChannel
          ? null
          : (result.settlement?.transaction.toLowerCase() ?? null),
        lastAttempt: { at: now().toISOString(), state: "unknown", message: result.message },
      });
      return {
        type: "failed",
        message:
          recoveryId === undefined
            ? `${result.message} To fetch the report: ${result.recover}`
            : message,
        charged: result.charged,
        ...(recoveryId !== undefined && { recoveryId }),
      };
    }
    case "forged": {
      const recoveryId = await recovery.settle({
        transaction: result.settlement?.viaChannel
          ? null
          : (result.settlement?.transaction.toLowerCase() ?? null),
        lastAttempt: { at: now().toISOString(), state: "forged", message: result.message },
      });
      return {
        type: "forged",
        message: result.message,
        charged: result.charged,
        ...(recoveryId !== undefined && { recoveryId }),
      };
    }
  }
}

/**
 * What the person reads when the wallet's signature was not the one asked for: the server
 * refused it, or it was refused here before it was sent.
 */
export const badSignatureMessage =
  "Your wallet's signature was not for the payment this card showed, so presend was paid nothing. If your wallet was on another account or network, switch it to the account this site is connected to, then check again. If your wallet showed another recipient or amount than this card, this page changed the request on its way to your wallet, and the signature you gave may let the page take what your wallet showed: sign nothing more on this page.";

/** What the person reads when the wallet signed after the authorization's validity ran out. */
export const signedTooLateMessage =
  "Your wallet signed after the payment's time to sign had run out (about a minute), so it paid nothing. Check again and sign within the minute; with a hardware wallet, unlock it and open its Ethereum app before you click.";

/** A signature given too late: refused here before it was sent, or by the server. */
function signedTooLate(result: { status: number | null; code: string }, cause: unknown): boolean {
  if (result.status === 402 && result.code.endsWith("_authorization_valid_before")) return true;
  return (
    walkCauses(cause, (e) => e instanceof PaymentError && e.code === "signature_expired") !== null
  );
}

/**
 * A signature the wallet gave that cannot pay: the server's x402 refusal of its signature
 * (exact or a channel deposit), or the bridge's answer that was no signature at all.
 */
function badSignature(result: { status: number | null; code: string }, cause: unknown): boolean {
  // Every x402 refusal of a signature ends so (invalid_exact_evm_failed_to_parse_signature too).
  if (result.status === 402 && /_signature$/.test(result.code)) return true;
  return (
    walkCauses(cause, (e) => e instanceof PaymentError && e.code === "invalid_wallet_signature") !==
    null
  );
}

/** What the person reads when the page a check was clicked in was left before its wallet signed. */
export const pageLeftMessage =
  "The page you paid from was closed, reloaded or left before your wallet signed, and no other page was asked anything. Check again on the page with your wallet.";

/**
 * A wallet that said no (cancelled, declined, absent), in the words the card shows; null for
 * any other failure.
 */
export function walletRefusal(error: unknown, accountShared: boolean): CheckOutcome | null {
  const cause = (walkCauses(error, (e) => e instanceof MessageError) as MessageError | null)?.code;
  if (cause === "page_left") {
    // The tab closed, reloaded or went elsewhere before the wallet signed: no other page was
    // asked anything.
    return { type: "failed", message: pageLeftMessage, charged: false, code: "page_left" };
  }
  if (cause === "no_answer") {
    // The request timed out in the content script: a signature the wallet gives later is
    // dropped there, so nothing signed was sent.
    return {
      type: "failed",
      message:
        "Your wallet did not answer, so nothing was paid. If it still shows presend's request, reject it there, then check again.",
      charged: false,
      code: "wallet_silent",
    };
  }
  if (cause === "cancelled") {
    return { type: "rejected", message: "You cancelled before signing." };
  }
  if (cause === "switch_declined") {
    return {
      type: "rejected",
      message:
        "You declined to switch your wallet to Base. presend is paid in USDC on Base: your wallet switches there to sign and back afterwards. Check again and accept the switch to pay.",
    };
  }
  if (cause === "rejected") {
    const message = accountShared
      ? "You declined the payment in your wallet."
      : "You declined to connect your wallet to this site.";
    return { type: "rejected", message };
  }
  if (cause === "no_wallet") {
    return {
      type: "refused",
      code: "no_wallet",
      message: "No wallet in this tab: open the dApp page with your wallet, then try again.",
    };
  }
  const fromWallet = walletErrorMessage(error);
  if (fromWallet) {
    return { type: "failed", message: fromWallet, charged: false, code: "wallet_error" };
  }
  return null;
}

/**
 * What the person reads when the wallet answered with an error of its own: what it means for
 * them, with the wallet's words (a hardware wallet's reason) when it gave some.
 */
function walletErrorMessage(error: unknown): string | null {
  const failure = walkCauses(error, (e) => e instanceof MessageError) as MessageError | null;
  const said = failure?.message ? ` (it said: "${failure.message}")` : "";
  switch (failure?.code) {
    case "wallet_unauthorized":
      return `Your wallet did not let this site ask it for a signature${said}, so nothing was paid. Allow this site for the account in your wallet, then check again.`;
    case "wallet_unsupported":
      return `Your wallet cannot sign this kind of request (EIP-712 typed data)${said}, so nothing was paid. Pay for checks with another wallet on this site.`;
    case "wallet_busy":
      return `Your wallet already has a request from this site open${said}, so nothing was paid. Open your wallet, finish or reject that request, then check again.`;
    case "wallet_error":
      return `Your wallet could not do what was asked${said}, so nothing was paid. Open your wallet (a hardware wallet: unlocked, its Ethereum app open), then check again.`;
    default:
      return null;
  }
}

// The client's refusals, in the fewer words the extension's UI distinguishes.
function shown(code: RefusalCode): ShownRefusal {
  switch (code) {
    case "invalid_address":
      return code;
    // The sender is the paying account, never the checked address: refused as the address.
    case "invalid_from":
    case "from_equals_address":
      return "invalid_address";
    case "key_changed":
    case "attestation_missing":
    case "attestation_invalid":
    case "cap_reached":
    case "ledger_unreadable":
    case "unexpected_challenge":
      return code;
    case "payto_mismatch":
    case "price_above_attested":
    case "offer_invalid":
    case "over_max_price":
      return "attestation_mismatch";
    case "network_mismatch":
    case "asset_mismatch":
    case "transfer_method_mismatch":
    case "validity_too_long":
    case "redirect":
    case "invalid_payment_id":
      return "unexpected_challenge";
    case "pin_store_unreadable":
      return "attestation_invalid";
    case "no_signer":
      return "no_wallet";
  }
}
