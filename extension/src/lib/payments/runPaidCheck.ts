import { type ChannelPaymentOptions, createPresendClient, type PaidResult } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import type { CheckOutcome, Progress } from "../messaging/protocol";
import { pinScope } from "../storage/pinScope";
import {
  channelDepositDefault,
  type HistoryEntry,
  type PendingRecovery,
  type PinnedKeys,
  type Route,
  type Settings,
  type SpendLedger,
} from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { channelPaymentFor, outOfStepMessage } from "./channelPaymentFor";
import { createLedgerSpendCap } from "./createLedgerSpendCap";
import { createPaymentProgress } from "./createPaymentProgress";
import { createPendingRecovery } from "./createPendingRecovery";
import type { PendingSpend } from "./createPendingSpend";
import { createPinStore } from "./createPinStore";
import { createWalletSigner, type RemoteWallet } from "./createWalletSigner";
import { paidCheckOutcome, walletRefusal } from "./paidCheckOutcome";
import { utcDay } from "./utcDay";

export type { RemoteWallet } from "./createWalletSigner";

/** How a check reaches a payment channel (see lib/channel/createChannelAccess). */
export type PaidCheckChannel = {
  /**
   * The channel options for this API origin and paying account, with `deposit` for a new one;
   * `price` is the check's attested price once known (see ChannelAccess.options).
   */
  options(
    scope: { apiUrl: string; payer: Address },
    deposit: bigint,
    price: () => bigint | null,
  ): Promise<ChannelPaymentOptions>;
  /** Runs the payment when no other channel payment is under way (vouchers are cumulative). */
  exclusive<T>(pay: () => Promise<T>): Promise<T>;
  /** Leaves the channels out of step with the server that could not be resynced (see ChannelAccess). */
  startOver(): Promise<void>;
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
  /** Pays over a batch-settlement channel when the server offers one (absent: exact only). */
  channel?: PaidCheckChannel;
  progress: (progress: Progress) => void;
  now: () => Date;
  randomId: () => string;
};

export type PaidCheckRequest = { route: Route; address: Address; chain: ChainName };

/**
 * One paid check through the presend client (the same attested-payment policy as the CLI and
 * the MCP server): attestation, pinned key, signed offer, Base USDC, validity, the daily cap,
 * then the page wallet signs, an exact payment or a channel deposit; over an open channel the
 * session key signs a voucher and the wallet is not asked. Its parts: the cap
 * (createLedgerSpendCap), the pins (createPinStore), the pending recovery
 * (createPendingRecovery), the wallet's signer (createWalletSigner), what the card shows
 * meanwhile (createPaymentProgress), the channel (channelPaymentFor) and the outcome
 * (paidCheckOutcome).
 * @example const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps)
 */
export async function runPaidCheck(
  request: PaidCheckRequest,
  deps: PaidCheckDeps,
): Promise<CheckOutcome> {
  const { apiUrl, dailyCapUnits, checkAsPayer = true, ...settings } = await deps.settings();
  const origin = pinScope(apiUrl);
  const deposit = BigInt(settings.channelDepositUnits ?? channelDepositDefault);
  const today = utcDay(deps.now());
  const spendCap = createLedgerSpendCap({
    ledger: deps.ledger,
    pending: deps.pending,
    dailyCapUnits,
    today,
  });
  const recovery = createPendingRecovery(
    { apiUrl: origin, route: request.route, address: request.address, chain: request.chain },
    deps,
  );
  // Set once the paying account is known; one's own address is checked without a sender.
  let sender: Address | undefined;
  const progress = createPaymentProgress(deps.progress);
  // A wallet not connected to the site asks the person to connect first: declining that is
  // not declining the payment.
  let accountShared = false;
  let signingError: unknown;
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
  const channelOptions =
    deps.channel && deposit > 0n
      ? await deps.channel.options({ apiUrl: origin, payer }, deposit, progress.price)
      : undefined;
  const channel =
    channelOptions &&
    channelPaymentFor(channelOptions, (authorization) => recovery.recordSent(authorization));
  const client = createPresendClient({
    url: new URL(origin).toString(),
    fetch: deps.fetch,
    pinStore: createPinStore(deps.pinnedKeys),
    spendCap: {
      ...spendCap,
      // Once the ledger counts a payment, its pending recovery says so: a later fetch that
      // proves nothing was charged gives the cap that amount back (recoverReport), and only then.
      async reserve(amount, options) {
        const reserved = await spendCap.reserve(amount, options);
        if (reserved.type === "refused") return reserved;
        const { reservation } = reserved;
        return {
          type: "reserved",
          reservation: {
            ...reservation,
            async spend() {
              await reservation.spend();
              await recovery.counted(amount, today);
            },
          },
        };
      },
    },
    onEvent: progress.onEvent,
    now: deps.now,
    // The channel's payments (and its close) run one at a time in the background's queue: held
    // by the client around the channel payment only, so an exact check never waits there (it
    // waited behind another tab's open wallet prompt, its card saying it asked for the price).
    ...(channel &&
      deps.channel && {
        channel: { ...channel.options, lock: { hold: deps.channel.exclusive } },
      }),
    signer: async () =>
      createWalletSigner({
        wallet: deps.wallet,
        payer,
        fits: (units) => spendCap.fits(units),
        now: deps.now,
        beforeAsking: (typedData) => progress.askingWallet(typedData, sender),
        afterSigned: (typedData) => recovery.recordSigned(typedData),
        // The channel payer reports a failed signature without its cause: kept for the outcome.
        onFailure: (error) => {
          signingError = error;
        },
      }),
  });

  deps.progress({ step: "requesting" });
  const input = { address: request.address, chain: request.chain, ...(sender && { from: sender }) };
  const pay = (): Promise<PaidResult<Report | DeepReport>> =>
    request.route === "deep" ? client.deep(input) : client.check(input);
  const result = await pay();
  // A channel out of step that could not be resynced: the next check opens a new one.
  const outOfStep = channel?.outOfStep(result) === true;
  if (outOfStep) await deps.channel?.startOver();
  const outcome = await paidCheckOutcome(result, {
    request,
    recovery,
    history: deps.history,
    historyLimit: deps.historyLimit,
    ledgerBroken: spendCap.ledgerBroken(),
    accountShared,
    signingError,
    now: deps.now,
    randomId: deps.randomId,
  });
  return outOfStep && outcome.type === "failed"
    ? { ...outcome, message: outOfStepMessage, code: "channel_out_of_step" }
    : outcome;
}
