import {
  type ChannelPaymentOptions,
  type ClientEvent,
  createPresendClient,
  type PaidResult,
  type SentAuthorization,
} from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import type { ClientEvmSigner } from "@x402/evm";
import type { Address, Hex } from "viem";
import { createPageChainReader } from "../channel/createPageChainReader";
import { outOfStepCodes } from "../channel/outOfStepCodes";
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
import { formatUsdc } from "../ui/prices";
import { createLedgerSpendCap } from "./createLedgerSpendCap";
import { createPendingRecovery } from "./createPendingRecovery";
import type { PendingSpend } from "./createPendingSpend";
import { createPinStore } from "./createPinStore";
import { guardWalletTypedData } from "./guardWalletTypedData";
import { paidCheckOutcome, walletRefusal } from "./paidCheckOutcome";
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
  /** A read-only eth_call on `chainId` through the page's wallet (no prompt; see PageWallet). */
  call(chainId: number, to: Address, data: Hex): Promise<Hex>;
};

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
 * (createPendingRecovery) and the outcome (paidCheckOutcome).
 * @example const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps)
 */
export async function runPaidCheck(
  request: PaidCheckRequest,
  deps: PaidCheckDeps,
): Promise<CheckOutcome> {
  const { apiUrl, dailyCapUnits, checkAsPayer = true, ...settings } = await deps.settings();
  const origin = pinScope(apiUrl);
  const deposit = BigInt(settings.channelDepositUnits ?? channelDepositDefault);
  const spendCap = createLedgerSpendCap({
    ledger: deps.ledger,
    pending: deps.pending,
    dailyCapUnits,
    today: utcDay(deps.now()),
  });
  const recovery = createPendingRecovery(
    { apiUrl: origin, route: request.route, address: request.address, chain: request.chain },
    deps,
  );
  // Set once the paying account is known; one's own address is checked without a sender.
  let sender: Address | undefined;
  // The attested terms, shown when the wallet is about to be asked (a voucher asks nobody).
  let terms: Extract<ClientEvent, { type: "verified" }> | null = null;
  const onEvent = (event: ClientEvent) => {
    if (event.type === "verified") terms = event;
    if (event.type === "paying") {
      deps.progress({ step: "paying" });
      deps.progress({ step: "checking" });
    }
  };
  const askingWallet = (typedData: { primaryType: string; message: Record<string, unknown> }) => {
    if (terms === null) return;
    // A channel deposit (to the scheme's deposit collector) is shown as one, with its amount.
    const isDeposit = typedData.primaryType === "ReceiveWithAuthorization";
    deps.progress({
      step: "waiting-wallet",
      ...(sender !== undefined && { from: sender }),
      amount: terms.amount,
      payTo: terms.payTo,
      keyFingerprint: terms.fingerprint,
      keyPinnedNow: terms.pinnedNow,
      ...(isDeposit && { deposit: String(typedData.message.value) }),
    });
  };
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
  // A voucher the session key refused to sign after a resync (see ChannelAccess.options).
  let voucherRefusal: unknown;
  const channelOptions =
    deps.channel && deposit > 0n
      ? await deps.channel.options({ apiUrl: origin, payer }, deposit, () =>
          terms === null ? null : BigInt(terms.amount),
        )
      : undefined;
  const channel =
    channelOptions !== undefined
      ? {
          ...channelOptions,
          voucherSigner: {
            ...channelOptions.voucherSigner,
            signTypedData: (typedData: Parameters<ClientEvmSigner["signTypedData"]>[0]) =>
              channelOptions.voucherSigner.signTypedData(typedData).catch((error: unknown) => {
                voucherRefusal = error;
                throw error;
              }),
          },
          // A voucher's record nonce is written down before the voucher leaves: a lost answer or
          // a background stopped mid-check still leaves the report to fetch through /receipts.
          beforeSend: (authorization: SentAuthorization) => recovery.recordSent(authorization),
        }
      : undefined;
  const client = createPresendClient({
    url: new URL(origin).toString(),
    fetch: deps.fetch,
    pinStore: createPinStore(deps.pinnedKeys),
    spendCap,
    onEvent,
    now: deps.now,
    ...(channel && { channel }),
    signer: async () => ({
      address: payer,
      // A channel the server finds out of step is resynced from the escrow's state on Base,
      // read through the page's wallet (the scheme's corrective-402 recovery).
      readContract: createPageChainReader((chainId, to, data) =>
        deps.wallet.call(chainId, to, data),
      ),
      signTypedData: async (typedData) => {
        try {
          guardWalletTypedData(typedData, payer);
          if (typedData.primaryType === "ReceiveWithAuthorization") {
            // The client reserves a deposit once it is signed: a deposit over the cap is
            // refused here, before the wallet is asked for it.
            const overCap = await spendCap.fits(BigInt(String(typedData.message.value)));
            if (overCap !== null) {
              throw new PaymentError(
                `${overCap} A channel deposit of ${formatUsdc(String(typedData.message.value))} was asked; lower it in the settings.`,
                { code: "cap_reached" },
              );
            }
          }
          askingWallet(typedData);
          const signature = await deps.wallet.signTypedData(typedData);
          await recovery.recordSigned(typedData);
          return signature;
        } catch (error) {
          // The channel payer reports a failed signature without its cause: kept for the outcome.
          signingError = error;
          throw error;
        }
      },
      // Asking the wallet for a receipt signature takes the person's click ("Fetch my report"),
      // so the client's automatic recovery stops here and the pending recovery is kept.
      signMessage: async () => {
        throw new PaymentError("The receipt signature is asked for on the person's click.", {
          code: "receipt_signature_unavailable",
        });
      },
    }),
  });

  deps.progress({ step: "requesting" });
  const input = { address: request.address, chain: request.chain, ...(sender && { from: sender }) };
  const pay = (): Promise<PaidResult<Report | DeepReport>> =>
    request.route === "deep" ? client.deep(input) : client.check(input);
  const result = channel && deps.channel ? await deps.channel.exclusive(pay) : await pay();
  // The server holds a later voucher than the channel's record here (an answer was lost) and the
  // channel could not be resynced (the wallet could not read Base, the server's state was not
  // proven by the session key): the next check opens a new one.
  const outOfStep =
    channel !== undefined &&
    result.type === "not_charged" &&
    (outOfStepCodes.includes(result.code) ||
      walkCauses(
        voucherRefusal,
        (e) => e instanceof PaymentError && e.code === "channel_out_of_step",
      ) !== undefined);
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
    ? {
        ...outcome,
        message:
          "Your payment channel was out of step with presend's server and could not be re-synced, so nothing was paid. Check again: a new channel opens with one deposit, and the rest of the old one comes back to your wallet after a day.",
      }
    : outcome;
}
