import {
  type ClientEvent,
  createPresendClient,
  type PaidResult,
  type PinStore,
  type RefusalCode,
  type SpendCap,
} from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import type { Address, Hex } from "viem";
import { MessageError } from "../messaging/MessageError";
import type { CheckOutcome, Progress, RefusalCode as ShownRefusal } from "../messaging/protocol";
import { pinScope } from "../storage/pinScope";
import type {
  HistoryEntry,
  PendingRecovery,
  PinnedKeys,
  Route,
  Settings,
  SpendLedger,
} from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { formatUsdc } from "../ui/prices";
import type { PendingSpend } from "./createPendingSpend";
import { utcDay } from "./utcDay";

/** The page wallet as the background reaches it (through the content script and the bridge). */
export type RemoteWallet = {
  account(): Promise<Address>;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
};

export type PaidCheckDeps = {
  fetch: typeof fetch;
  settings: () => Promise<Settings>;
  pinnedKeys: ValidatedItem<PinnedKeys>;
  ledger: ValidatedItem<SpendLedger>;
  /** Payments under way in this background, shared by every check (see createPendingSpend). */
  pending: PendingSpend;
  history: ValidatedItem<HistoryEntry[]>;
  historyLimit: number;
  /** Payments whose report has not arrived (written before a signed payment is sent). */
  recoveries: ValidatedItem<PendingRecovery[]>;
  wallet: RemoteWallet;
  progress: (progress: Progress) => void;
  now: () => Date;
  randomId: () => string;
};

export type PaidCheckRequest = { route: Route; address: Address; chain: ChainName };

/** Pending recoveries kept at most (the oldest beyond are dropped). */
const recoveriesKept = 20;

const ledgerUnreadable =
  "The record of today's spending is unreadable, so the daily cap cannot be enforced. Reset it in the options to pay again.";

/**
 * One paid check through the presend client (the same attested-payment policy as the CLI and
 * the MCP server): attestation, pinned key, signed offer, Base USDC, validity, the daily cap,
 * then the page wallet signs. The daily cap counts the payment once it is sent and refunds it
 * only when the answer proves nothing was charged.
 * @example const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps)
 */
export async function runPaidCheck(
  request: PaidCheckRequest,
  deps: PaidCheckDeps,
): Promise<CheckOutcome> {
  const { apiUrl, dailyCapUnits, checkAsPayer = true } = await deps.settings();
  const today = utcDay(deps.now());
  let ledgerBroken = false;

  // A key is trusted for the API origin it was first seen at (the client pins per origin too).
  const pinStore: PinStore = {
    get: async (origin) => (await deps.pinnedKeys.getValue())[origin],
    set: async (origin, pin) => {
      await deps.pinnedKeys.update((pins) => ({ ...pins, [origin]: pin }));
    },
  };
  const spendCap: SpendCap = {
    async reserve(amount) {
      let ledger: SpendLedger;
      try {
        ledger = await deps.ledger.getValue();
      } catch {
        // Reading an unreadable ledger as $0 would let anything that corrupts it lift the cap.
        ledgerBroken = true;
        return { type: "refused", message: ledgerUnreadable };
      }
      // Checks still under way count as spent: two started together cannot both fit.
      const spent = (ledger.day === today ? BigInt(ledger.spentUnits) : 0n) + deps.pending.total();
      if (spent + amount > BigInt(dailyCapUnits)) {
        return {
          type: "refused",
          message: capMessage(spent, BigInt(dailyCapUnits), amount),
        };
      }
      // Held from the cap check on (no await in between) until the ledger counts it.
      const release = deps.pending.hold(amount);
      let counted = false;
      return {
        type: "reserved",
        reservation: {
          async spend() {
            await deps.ledger.update((current) => ({
              day: today,
              spentUnits: Number(
                (current.day === today ? BigInt(current.spentUnits) : 0n) + amount,
              ),
            }));
            counted = true;
            release();
          },
          async release() {
            release();
            if (!counted) return;
            counted = false;
            await deps.ledger.update((current) => ({
              day: current.day,
              spentUnits:
                current.day === today
                  ? Math.max(0, current.spentUnits - Number(amount))
                  : current.spentUnits,
            }));
          },
        },
      };
    },
  };
  // Set once the paying account is known; one's own address is checked without a sender.
  let sender: Address | undefined;
  const onEvent = (event: ClientEvent) => {
    if (event.type === "verified") {
      deps.progress({
        step: "waiting-wallet",
        ...(sender !== undefined && { from: sender }),
        amount: event.amount,
        payTo: event.payTo,
        keyFingerprint: event.fingerprint,
        keyPinnedNow: event.pinnedNow,
      });
    }
    if (event.type === "paying") {
      deps.progress({ step: "paying" });
      deps.progress({ step: "checking" });
    }
  };
  // The signed authorization, recorded before the client sends it: whatever happens next (the
  // answer lost, the service worker stopped), the report can be fetched again by payer and nonce.
  let sent: PendingRecovery | null = null;
  const recordSent = async (typedData: { message: Record<string, unknown> }) => {
    const { from, to, value, nonce } = typedData.message as {
      from?: unknown;
      to?: unknown;
      value?: unknown;
      nonce?: unknown;
    };
    if (typeof nonce !== "string" || typeof from !== "string") return;
    sent = {
      id: deps.randomId(),
      apiUrl: pinScope(apiUrl),
      payer: from as Address,
      nonce: nonce.toLowerCase(),
      transaction: null,
      route: request.route,
      address: request.address,
      chain: request.chain,
      amount: String(value),
      payTo: to as Address,
      sentAt: deps.now().toISOString(),
      lastAttempt: null,
    };
    const entry = sent;
    await deps.recoveries.update((list) => [entry, ...list].slice(0, recoveriesKept));
  };
  const settleRecovery = async (change: Partial<PendingRecovery> | "done") => {
    const id = sent?.id;
    if (id === undefined) return undefined;
    await deps.recoveries.update((list) =>
      change === "done"
        ? list.filter((r) => r.id !== id)
        : list.map((r) => (r.id === id ? { ...r, ...change } : r)),
    );
    return id;
  };
  // A wallet not connected to the site asks the person to connect first: declining that is
  // not declining the payment.
  let accountShared = false;
  // The paying account, through the same bridge call that pays (the page cannot name another):
  // sent as the check's sender, so the report reads the person's own payments (poisoning).
  let payer: Address;
  try {
    payer = await deps.wallet.account();
    accountShared = true;
    if (checkAsPayer && payer.toLowerCase() !== request.address.toLowerCase()) sender = payer;
  } catch (cause) {
    const refusal = walletRefusal(cause, false);
    if (refusal) return refusal;
    // Nothing was signed: the check stops here, uncharged.
    return {
      type: "failed",
      message: "Your wallet did not share its account, so nothing was paid. Try again.",
      charged: false,
    };
  }
  const client = createPresendClient({
    url: new URL(pinScope(apiUrl)).toString(),
    fetch: deps.fetch,
    pinStore,
    spendCap,
    onEvent,
    now: deps.now,
    signer: async () => {
      return {
        address: payer,
        signTypedData: async (typedData) => {
          const signature = await deps.wallet.signTypedData(typedData);
          await recordSent(typedData);
          return signature;
        },
        // Asking the wallet for a receipt signature takes the person's click ("Fetch my report"),
        // so the client's automatic recovery stops here and the pending recovery is kept.
        signMessage: async () => {
          throw new PaymentError("The receipt signature is asked for on the person's click.", {
            code: "receipt_signature_unavailable",
          });
        },
      };
    },
  });

  deps.progress({ step: "requesting" });
  const input = { address: request.address, chain: request.chain, ...(sender && { from: sender }) };
  const result: PaidResult<Report | DeepReport> =
    request.route === "deep" ? await client.deep(input) : await client.check(input);

  if (result.type === "report" || result.type === "not_charged" || result.type === "refused") {
    await settleRecovery("done");
  }
  switch (result.type) {
    case "report": {
      const entry: HistoryEntry = {
        id: deps.randomId(),
        address: result.report.address as Address,
        chain: request.chain,
        route: request.route,
        level: result.report.verdict.level,
        headline: result.report.verdict.headline,
        checkedAt: deps.now().toISOString(),
        amount: result.settlement.amount,
        payTo: result.settlement.payTo,
        transaction: result.settlement.transaction,
        report: result.report,
      };
      await deps.history.update((list) => [entry, ...list].slice(0, deps.historyLimit));
      return { type: "report", entry };
    }
    case "refused":
      return {
        type: "refused",
        code:
          ledgerBroken && result.code === "cap_reached" ? "ledger_unreadable" : shown(result.code),
        message: result.message,
      };
    case "not_charged": {
      const refusal = walletRefusal(result.cause, accountShared);
      if (refusal) return refusal;
      if (result.status === 400) {
        return { type: "refused", code: "invalid_address", message: result.message };
      }
      if (result.status === null) {
        // No answer at all ("Failed to fetch"): the address in the settings is the usual cause.
        return {
          type: "failed",
          message: "presend's server could not be reached. Check the API address in the settings.",
          charged: false,
        };
      }
      return { type: "failed", message: result.message, charged: false };
    }
    case "unrecovered": {
      const message =
        result.charged === true
          ? "Paid, but the report did not arrive."
          : "The answer to the payment was lost.";
      const recoveryId = await settleRecovery({
        transaction: result.settlement?.transaction.toLowerCase() ?? null,
        lastAttempt: { at: deps.now().toISOString(), state: "unknown", message: result.message },
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
      const recoveryId = await settleRecovery({
        transaction: result.settlement?.transaction.toLowerCase() ?? null,
        lastAttempt: { at: deps.now().toISOString(), state: "forged", message: result.message },
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

// A wallet that said no (cancelled, declined, absent), in the words the card shows; null for
// any other failure.
function walletRefusal(error: unknown, accountShared: boolean): CheckOutcome | null {
  const cause = (walkCauses(error, (e) => e instanceof MessageError) as MessageError | null)?.code;
  if (cause === "cancelled") {
    return { type: "rejected", message: "You cancelled before signing." };
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
  return null;
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
    case "unexpected_challenge":
      return code;
    case "payto_mismatch":
    case "price_above_attested":
    case "offer_invalid":
    case "over_max_price":
      return "attestation_mismatch";
    case "network_mismatch":
    case "asset_mismatch":
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

// Says what is true: the cap may not be reached yet, only too close for this check's price.
function capMessage(spent: bigint, cap: bigint, price: bigint): string {
  const left = cap > spent ? cap - spent : 0n;
  if (left === 0n) {
    return `Today's spending cap of ${formatUsdc(cap)} is used up (${formatUsdc(spent)} spent). Raise it in the settings to pay again today.`;
  }
  return `This check costs ${formatUsdc(price)}, more than the ${formatUsdc(left)} left of today's ${formatUsdc(cap)} cap (${formatUsdc(spent)} spent). Raise the cap in the settings, or try a cheaper check.`;
}
