import { channelReceiptNonce } from "@presend/shared/api/channelReceiptNonce";
import { channelWithdrawalPending } from "@presend/shared/api/channelWithdrawalPending";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import type { DeepReport, Report } from "@presend/shared/api/report";
import { DeepReportSchema, ReportSchema } from "@presend/shared/api/report";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from "@x402/core/http";
import { PaymentRequiredV2Schema } from "@x402/core/schemas";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import type { ClientEvmSigner } from "@x402/evm";
import {
  type BatchSettlementClientContext,
  BatchSettlementEvmScheme,
  type ClientChannelStorage,
  InMemoryClientChannelStorage,
} from "@x402/evm/batch-settlement/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { type Address, type Hex, toHex } from "viem";
import { insufficientBalanceMessage } from "../answers/insufficientBalanceMessage";
import { termsChangedMessage } from "../answers/termsChangedMessage";
import { undeployedAccountMessage } from "../answers/undeployedAccountMessage";
import { describeCause, notCharged } from "../outcomes";
import type { PinRecord } from "../PinStore";
import type { ClientEvent, PaidOutcome, SentAuthorization, Settlement } from "../PresendResult";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import type { Reservation, SpendCap } from "../SpendCap";
import { type ChannelLock, createMemoryChannelLock } from "./channelLock";
import { type ChannelSaltStore, createMemoryChannelSaltStore } from "./channelSaltStore";
import { checkSignableTypedData } from "./checkSignableTypedData";
import { createDepositLedger, type DepositLedgerStore } from "./createDepositLedger";
import {
  explainRefundFailure,
  nothingLeftToRefund,
  type RefundAnswer,
  refundOutOfStep,
} from "./explainRefundFailure";

/** How a client pays over a batch-settlement channel when the server offers one. */
export type ChannelPaymentOptions = {
  /**
   * The session key that signs the vouchers (the channel's payer authorizer); the wallet signs
   * only deposits.
   */
  voucherSigner: ClientEvmSigner;
  /** Where the channel's state is kept between calls (default: in memory). */
  storage?: ClientChannelStorage;
  /**
   * Where the current channel's salt is kept, as long as `storage` keeps its state (default: in
   * memory): a closed channel is left for a new one with a new salt.
   */
  saltStore?: ChannelSaltStore;
  /**
   * Held around each payment and the close, so they run one at a time (default: in memory, for
   * this client alone): the server refuses a second request on a channel while one runs, and
   * each voucher counts from the state the last one left. Processes sharing `storage` must share
   * the lock too.
   */
  lock?: ChannelLock;
  /**
   * Where the spend cap's account of the channel's deposits is kept (default: in memory): kept
   * beside `storage`, a later process's close gives the cap back what came back of them.
   */
  depositLedger?: DepositLedgerStore;
  /** What one deposit puts in, in USDC base units (default: 10 checks' worth). */
  deposit?: bigint;
  /**
   * The most one deposit may put in, in USDC base units (default: no bound but the spend cap):
   * the default deposit is lowered to it, and to what the spend cap has left when the cap says
   * (`available`); a deposit above it, or one it leaves too small to pay the check, is refused
   * before the wallet signs anything.
   */
  maxDeposit?: bigint;
  /**
   * Told each signed payment (its record nonce, as /receipts finds it) before it is sent, so a
   * caller can write down what to recover if the answer never comes; a later attempt of the same
   * check (after a refusal that charged nothing) names its own. If it throws, nothing is sent.
   */
  beforeSend?(authorization: SentAuthorization): Promise<void>;
};

/** Default deposit: this many checks at the offered price. */
export const defaultDepositChecks = 10n;

export type ChannelPayment = {
  paymentRequired: PaymentRequired;
  requirement: PaymentRequirements;
  route: "/check" | "/deep";
  pin: PinRecord;
  /** Sends the paid request with these headers. */
  post(headers: Record<string, string>): Promise<Response>;
};

/** A deposit sent with a check: the spend cap holds `amount` under the payment key `payment`. */
type SentDeposit = { payment: string; amount: bigint };

/** What closing the channel did: the rest of the deposit sent back, or why not. */
export type ChannelCloseResult =
  | { type: "closed"; transaction: string; refunded: string | null }
  | {
      type: "failed";
      message: string;
      /** Set when the server refused the refund as out of step with the state here. */
      code?: typeof refundOutOfStep;
      /**
       * The channel holds nothing a later close could return (all spent, or the server already
       * refunded it and no longer holds it): it need not be offered back.
       */
      nothingLeft?: true;
    };

export type ChannelPayer = {
  pay<R extends Report | DeepReport>(payment: ChannelPayment): Promise<PaidOutcome<R>>;
  /**
   * Asks the server for a cooperative refund of the channel behind `url` (the package's refund:
   * a zero-charge voucher at what was charged); the server claims what was charged and sends the
   * rest back on chain. The next check then opens a new channel (a new salt, a new deposit).
   */
  close(url: string, fetch: typeof globalThis.fetch): Promise<ChannelCloseResult>;
};

const refusedByServer = "invalid_batch_settlement_evm_cumulative_amount_mismatch";
/**
 * The escrow holds less than this client's state says is left: the server refunded the channel
 * on its own (an idle channel), so a voucher on it cannot be paid.
 */
const exceedsBalance = "invalid_batch_settlement_evm_cumulative_exceeds_balance";
/**
 * The escrow has claimed more than this client's state counts from (its state was lost, or the
 * channel was refunded and that state forgotten): vouchers counted from it cannot be paid.
 */
const belowClaimed = "invalid_batch_settlement_evm_cumulative_below_claimed";

/** Whether a PAYMENT-REQUIRED header is an x402 v2 challenge the package can read. */
const isPaymentRequired = (header: string) => {
  try {
    return PaymentRequiredV2Schema.safeParse(decodePaymentRequiredHeader(header)).success;
  } catch {
    return false;
  }
};

/** The package's salt: the channel of a client that never chose one. */
const zeroSalt: Hex = `0x${"00".repeat(32)}`;

/** 503 codes answered before anything was settled: nothing was charged. */
const notChargedUnavailable = new Set([
  "chain_unavailable",
  "payment_network_unavailable",
  "payment_record_unavailable",
  "facilitator_unavailable",
]);

/**
 * Pays checks over one batch-settlement channel with the official `@x402/evm` client scheme: the
 * wallet signs a deposit (reserved whole in the spend cap before it is sent), the session key
 * signs a voucher per check (no wallet prompt, nothing more reserved). The channel's config is
 * checked after signing and before sending (payee, token), a voucher the server finds out of
 * step is resynchronised from its corrective 402 and sent once more, and a report is trusted
 * only with its signature, which binds the payment record the server names in PRESEND-RECEIPT.
 * A closed channel, or one the server refunded on its own (its vouchers refused before any
 * charge), is left for a new one with a new salt: the escrow keeps a refunded channel's claimed
 * total, and the package's resync from it needs chain reads this client does not have.
 * @example const payer = createChannelPayer({ base, payer: wallet, channel: { voucherSigner }, spendCap, emit });
 */
export function createChannelPayer(options: {
  /** The API's URL without a trailing slash: named in the request that fetches a report again. */
  base: string;
  payer: ClientEvmSigner;
  channel: ChannelPaymentOptions;
  spendCap?: SpendCap;
  emit: (event: ClientEvent) => void;
}): ChannelPayer {
  let depositFor = 0n;
  /** Why the last deposit asked for was refused before signing (see `maxDeposit`). */
  let depositRefusal: string | null = null;
  const storage = options.channel.storage ?? new InMemoryClientChannelStorage();
  /** Set when the scheme asked `storage` for a channel's state and found none. */
  let stateMissing = false;
  /** The channel state the scheme last read or kept: what a close found. */
  let lastState: BatchSettlementClientContext | undefined;
  const schemeStorage: ClientChannelStorage = {
    get: async (key) => {
      const state = await storage.get(key);
      if (state === undefined) stateMissing = true;
      lastState = state;
      return state;
    },
    set: (key, context) => {
      lastState = context;
      return storage.set(key, context);
    },
    delete: (key) => storage.delete(key),
  };
  const saltStore = options.channel.saltStore ?? createMemoryChannelSaltStore();
  const deposits = createDepositLedger({
    ...(options.spendCap && { cap: options.spendCap }),
    ...(options.channel.depositLedger && { store: options.channel.depositLedger }),
  });
  const lock = options.channel.lock ?? createMemoryChannelLock();
  /**
   * Runs `work` holding the channel's lock. A lock that cannot be had (another process holds it
   * too long, its file cannot be opened) is `unavailable`'s answer: nothing was signed or sent.
   */
  const holding = async <T>(work: () => Promise<T>, unavailable: (cause: unknown) => T) => {
    let started = false;
    try {
      return await lock.hold(() => {
        started = true;
        return work();
      });
    } catch (cause) {
      if (started) throw cause;
      return unavailable(cause);
    }
  };
  type Channel = { scheme: BatchSettlementEvmScheme; http: x402HTTPClient };
  let current: Promise<Channel> | null = null;

  // The wallet signs deposits only (vouchers are the session key's): whatever else the scheme
  // asks of it (a Permit2 deposit, a permit) is refused before the wallet sees it, and it is
  // given no transaction signing, so no approval can be signed through it.
  const wallet: ClientEvmSigner = {
    address: options.payer.address,
    ...(options.payer.readContract && { readContract: options.payer.readContract }),
    signTypedData: (typedData) => {
      const refusal = checkSignableTypedData(typedData, {
        allowed: ["ReceiveWithAuthorization"],
        from: options.payer.address,
      });
      if (refusal !== null) {
        return Promise.reject(new PaymentError(refusal, { code: "unexpected_typed_data" }));
      }
      return options.payer.signTypedData(typedData);
    },
  };

  const channelWith = (salt: Hex): Channel => {
    const scheme = new BatchSettlementEvmScheme(wallet, {
      voucherSigner: options.channel.voucherSigner,
      storage: schemeStorage,
      salt,
      // Asked only when a deposit is due, before anything is signed: the bound is held here.
      depositStrategy: async ({ minimumDepositAmount }) => {
        const needed = BigInt(minimumDepositAmount);
        const amount = await fitToCap(depositFor, needed);
        depositRefusal = refuseDeposit(amount, needed);
        if (depositRefusal !== null) {
          throw new PaymentError(depositRefusal, { code: "deposit_above_bound" });
        }
        return amount;
      },
    });
    return { scheme, http: new x402HTTPClient(new x402Client().register(baseNetwork, scheme)) };
  };
  /** The channel this client pays through now: the salt kept, or the package's zero salt. */
  const channel = (): Promise<Channel> => {
    if (current === null) {
      const reading = saltStore.read().then((salt) => channelWith(salt ?? zeroSalt));
      // A salt that could not be read is asked for again at the next check.
      reading.catch(() => {
        if (current === reading) current = null;
      });
      current = reading;
    }
    return current;
  };
  /**
   * Leaves the current channel for a new one: its state is forgotten and a new salt kept, so the
   * next check opens another channel with a deposit whose vouchers count from zero.
   */
  const moveToNewChannel = async (left: Hex | null) => {
    const salt = toHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    await saltStore.write(salt);
    if (left !== null) await storage.delete(left.toLowerCase());
    current = Promise.resolve(channelWith(salt));
  };

  return {
    // One at a time with the payments: a close signs its refund voucher at the channel's total,
    // which a payment under way is about to change.
    close: (url, fetch) =>
      holding(
        () => closeNow(url, fetch),
        (cause): ChannelCloseResult => ({
          type: "failed",
          message: `The channel is in use by another payment: ${describeCause(cause)}`,
        }),
      ),
    // Concurrent checks (an agent's Promise.all, MCP tool calls, CLI runs sharing a state
    // directory) queue here: side by side the server would refuse all but one as channel_busy,
    // and on a new channel each would have the wallet sign a deposit of its own.
    pay: <R extends Report | DeepReport>(payment: ChannelPayment) =>
      holding(
        () => payNow<R>(payment),
        (cause): PaidOutcome<R> =>
          notCharged(
            "channel_unavailable",
            null,
            `The payment channel is in use by another payment (${describeCause(cause)}); nothing was signed or sent.`,
          ),
      ),
  };

  async function closeNow(
    url: string,
    fetch: typeof globalThis.fetch,
  ): Promise<ChannelCloseResult> {
    stateMissing = false;
    lastState = undefined;
    let malformedChallenge = false;
    const answers: RefundAnswer[] = [];
    // The package reads the refund's terms without checking their shape: a challenge without
    // the x402 v2 fields (no accepts list, say) would fail it with a TypeError.
    // The channel the refund voucher names: left for a new one when it holds nothing any more.
    let refundedChannel: Hex | null = null;
    const checkedFetch: typeof globalThis.fetch = async (input, init) => {
      const voucher = new Headers(init?.headers).get("PAYMENT-SIGNATURE");
      const signed = voucher !== null;
      if (voucher !== null) {
        refundedChannel = channelOf(decodePaymentSignatureHeader(voucher))?.channelId ?? null;
      }
      const answer = await fetch(input, init);
      const terms = answer.status === 402 ? answer.headers.get("PAYMENT-REQUIRED") : null;
      answers.push({ status: answer.status, hasTerms: terms !== null, signed });
      if (terms !== null && !isPaymentRequired(terms)) {
        malformedChallenge = true;
        throw new PaymentError("malformed payment challenge", { code: "unexpected_challenge" });
      }
      return answer;
    };
    try {
      const { scheme } = await channel();
      const settled = await scheme.refund(url, { fetch: checkedFetch });
      if (!settled.success) {
        return {
          type: "failed",
          message: `The refund was refused (${settled.errorReason ?? "no reason"}).`,
        };
      }
      // The facilitator's answer says what the refund sent back (read from the channel after
      // it); without a readable amount nothing is credited to the cap.
      const refunded = /^\d+$/.test(settled.amount ?? "") ? (settled.amount as string) : null;
      await deposits.refunded(refunded === null ? 0n : BigInt(refunded));
      // The escrow keeps the refunded channel's claimed total (the package forgot its state on
      // the refund): the next check pays through a new channel, from a new deposit.
      await moveToNewChannel(null).catch(() => {
        // The salt could not be kept: the next check finds out from the server's refusal.
      });
      return { type: "closed", transaction: settled.transaction, refunded };
    } catch (cause) {
      const failure = { cause, answers, malformedChallenge, stateMissing, lastState };
      const nothingLeft = nothingLeftToRefund(failure);
      if (nothingLeft && refundedChannel !== null) {
        // Spent, or refunded by the server once idle and forgotten there: the escrow keeps its
        // claimed total, so the next check pays through a new channel, as after a close.
        await moveToNewChannel(refundedChannel).catch(() => {
          // Not kept: the next check finds out from the server's refusal, as before.
        });
      }
      return {
        type: "failed",
        message: explainRefundFailure(failure),
        ...(describeCause(cause).includes(refundOutOfStep) && { code: refundOutOfStep }),
        ...(nothingLeft && { nothingLeft: true as const }),
      };
    }
  }

  async function payNow<R extends Report | DeepReport>(
    payment: ChannelPayment,
  ): Promise<PaidOutcome<R>> {
    const sent: { deposit: SentDeposit | null } = {
      deposit: null,
    };
    const outcome = await payAttempts<R>(payment, sent);
    // Anything but proof of no charge: the check's price is spent, and a deposit sent with
    // it is held in the cap until the channel's refund gives back what it did not use.
    if (outcome.charged !== false) {
      if (sent.deposit) {
        const landed = outcome.charged === true;
        await deposits.deposited(sent.deposit.payment, sent.deposit.amount, landed);
      }
      await deposits.charged(BigInt(payment.requirement.amount));
    }
    return outcome;
  }

  /** `sent.deposit` names the deposit of the last attempt once it is sent. */
  async function payAttempts<R extends Report | DeepReport>(
    payment: ChannelPayment,
    sent: { deposit: SentDeposit | null },
  ): Promise<PaidOutcome<R>> {
    const { requirement } = payment;
    const price = BigInt(requirement.amount);
    const bound = options.channel.maxDeposit;
    const byDefault = defaultDepositChecks * price;
    depositFor =
      options.channel.deposit ?? (bound !== undefined && byDefault > bound ? bound : byDefault);
    let moved = false;
    for (let attempt = 0; ; attempt++) {
      sent.deposit = null;
      let http: x402HTTPClient;
      try {
        ({ http } = await channel());
      } catch (cause) {
        return notCharged("channel_unavailable", null, `No channel: ${describeCause(cause)}`);
      }
      // A new payment id per attempt: the record of a refused attempt is not the next one's.
      const paymentId = generatePaymentId("chan_");
      const extensions = { ...payment.paymentRequired.extensions };
      if (extensions[PAYMENT_IDENTIFIER] === undefined) {
        return refused("The server offers channels without x402 payment-identifier.");
      }
      appendPaymentIdentifierToExtensions(extensions, paymentId);
      let payload: PaymentPayload;
      depositRefusal = null;
      try {
        payload = await http.createPaymentPayload({
          ...payment.paymentRequired,
          extensions,
          accepts: [requirement],
        });
      } catch (cause) {
        if (depositRefusal !== null) {
          return { type: "refused", code: "cap_reached", message: depositRefusal, charged: false };
        }
        // The package reads the channel from Base (with readContract) before the wallet or the
        // session key signs: say both, so an endpoint that failed is not taken for a wallet's fault.
        return notCharged(
          "signing_failed",
          null,
          `The channel payment could not be prepared (reading the channel on Base, or signing): ${describeCause(cause)}`,
        );
      }
      const signed = channelOf(payload);
      if (
        signed === null ||
        signed.receiver.toLowerCase() !== requirement.payTo.toLowerCase() ||
        signed.token.toLowerCase() !== baseUsdc.toLowerCase()
      ) {
        return refused("The signed channel does not pay the attested payee in Base USDC.");
      }
      const authorization: SentAuthorization = {
        payer: signed.payer,
        nonce: channelReceiptNonce(signed.channelId, signed.cumulative, paymentId),
        amount: requirement.amount,
        payTo: requirement.payTo as Address,
      };
      try {
        await options.channel.beforeSend?.(authorization);
      } catch (cause) {
        return notCharged("not_sent", null, `Not sent: ${describeCause(cause)}`);
      }
      let reservation: Reservation | null = null;
      if (signed.deposit !== null && options.spendCap) {
        // The whole deposit counts once it is sent: the server may keep what it claims of it.
        // Held under a key of its own, so a later close (in another run too) can credit it.
        const depositKey = `channel deposit ${paymentId}`;
        const reserved = await options.spendCap.reserve(signed.deposit, { key: depositKey });
        if (reserved.type === "refused" && reserved.code === "ledger_unreadable") {
          // No deposit of any size fits a cap that cannot count: its message says what to do.
          return {
            type: "refused",
            code: reserved.code,
            message: reserved.message,
            charged: false,
          };
        }
        if (reserved.type === "refused") {
          // A default deposit was already lowered to what the cap has left: that is below what
          // this check needs, so a smaller deposit would not help either.
          const remedy =
            options.channel.deposit === undefined && options.channel.maxDeposit !== undefined
              ? "what the spend cap has left does not pay this check; raise the cap or start a new session."
              : "configure a smaller deposit.";
          return {
            type: "refused",
            code: "cap_reached",
            message: `${reserved.message} A channel deposit of ${formatUsdc(signed.deposit)} was asked; ${remedy}`,
            charged: false,
          };
        }
        reservation = reserved.reservation;
        await reservation.spend();
        sent.deposit = { payment: depositKey, amount: signed.deposit };
      }
      options.emit({ type: "paying", authorization, paymentId: null });
      /**
       * A deposit whose answer never came may have landed: the state kept here (no balance yet)
       * would have the next check deposit again. With read access to Base it is forgotten, so the
       * next check reads the channel from the escrow (and resyncs from the server's refusal).
       */
      const forgetUnansweredDeposit = async () => {
        if (signed.deposit !== null && options.payer.readContract) {
          await storage.delete(signed.channelId.toLowerCase()).catch(() => {});
        }
      };
      let answer: Response;
      try {
        answer = await payment.post(http.encodePaymentSignatureHeader(payload));
      } catch (cause) {
        await forgetUnansweredDeposit();
        return unknownOutcome(
          `The paid request failed before an answer arrived (${describeCause(cause)}).`,
          authorization,
          options.base,
        );
      }
      const result = await http
        .processPaymentResult(payload, (name) => answer.headers.get(name), answer.status)
        .catch(() => ({ recovered: false, settleResponse: undefined }));
      if (answer.status === 200 && result.settleResponse?.success) {
        return delivered(payment, answer, authorization);
      }
      if (answer.status === 402) {
        // A deposit whose settlement was attempted may have reached the escrow (it stays the
        // payer's there, refundable): not "nothing charged" unless the server refused it first.
        if (signed.deposit !== null && answer.headers.get("payment-response") !== null) {
          const moved = result.settleResponse?.transaction;
          return unknownOutcome(
            `The deposit's settlement was attempted${moved ? ` (${moved})` : ""} but the check was refused; whatever reached the channel stays refundable.`,
            authorization,
            options.base,
          );
        }
        await reservation?.release();
        const changed = termsChangedMessage(answer, requirement);
        if (changed !== null) return notCharged("terms_changed", 402, changed);
        const reason = reasonOf(answer);
        if (result.recovered && attempt === 0 && reason === refusedByServer) continue;
        if (
          !moved &&
          (reason === exceedsBalance ||
            reason === belowClaimed ||
            reason === channelWithdrawalPending)
        ) {
          // Refused before anything was settled, so this check was not charged: it is paid once,
          // through a new channel. A voucher beyond the escrow's balance means the server
          // refunded the channel on its own: the cap gets back what is known to have been left.
          // A withdrawal the payer started on the escrow (from another tool with this wallet)
          // ends the channel for the server: what it returns reaches the wallet only when the
          // payer finalizes it, so the cap is credited nothing for it.
          moved = true;
          if (reason === exceedsBalance && signed.deposit === null) {
            await deposits.refundedUnstated();
          }
          try {
            await moveToNewChannel(signed.channelId);
          } catch (cause) {
            return notCharged(
              reason,
              402,
              reason === channelWithdrawalPending
                ? `The payer started a timed withdrawal of the channel on the escrow, so the server takes nothing more over it, and a new channel could not be kept (${describeCause(cause)}); nothing was charged. Pay this check with exact, or fix the channel state storage and try again.`
                : `The channel is spent and a new one could not be kept (${describeCause(cause)}); nothing was charged.`,
            );
          }
          continue;
        }
        if (reason === refusedByServer) {
          // Not resynced: the package reads the escrow for that, and this signer cannot read Base.
          return notCharged(
            reason,
            402,
            "The payment channel is out of step with the server: an earlier check paid through it was charged but its answer was lost. Resyncing it needs read access to Base (the signer's readContract), which this client does not have or could not use. Nothing was charged; pay this check on its own (exact), or with read access to Base.",
          );
        }
        const plain =
          insufficientBalanceMessage(reason, {
            payer: signed.payer,
            price,
            deposit: signed.deposit,
          }) ?? undeployedAccountMessage(reason, signed.payer);
        if (plain !== null && reason !== undefined) return notCharged(reason, 402, plain);
        return notCharged(
          reason ?? "payment_refused",
          402,
          `The server refused the channel payment (${reason ?? "no reason"}); nothing was charged.`,
        );
      }
      // Only the server's own error proves the check was refused before a charge: a proxy's
      // page (no error body) may come after the voucher reached the server and was charged.
      const error = await errorBodyOf(answer);
      if (
        error !== undefined &&
        ((answer.status >= 400 && answer.status < 500 && answer.status !== 409) ||
          (answer.status === 503 && notChargedUnavailable.has(error.code)))
      ) {
        await reservation?.release();
        return notCharged(error.code, answer.status, error.message);
      }
      await forgetUnansweredDeposit();
      return unknownOutcome(
        `The channel payment was answered with HTTP ${answer.status}.`,
        authorization,
        options.base,
      );
    }
  }

  /**
   * The default deposit lowered to what the spend cap has left, when that still pays what is due:
   * after the server refunded a channel on its own (its cap credited only what is known to have
   * come back), the whole default no longer fits a session's cap, and every later check was
   * refused. Only for a bounded default (`maxDeposit`, as the CLI and the MCP server set it),
   * which callers already expect lowered; a deposit the caller configured is asked as it is:
   * the cap refuses it, named.
   */
  async function fitToCap(amount: bigint, needed: bigint): Promise<bigint> {
    if (options.channel.deposit !== undefined || options.channel.maxDeposit === undefined) {
      return amount;
    }
    const left = await options.spendCap?.available?.();
    if (left === undefined || left >= amount || left < needed) return amount;
    return left;
  }

  /** Why a deposit of `amount` may not be signed when at least `needed` is due; null if it may. */
  function refuseDeposit(amount: bigint, needed: bigint): string | null {
    const bound = options.channel.maxDeposit;
    // Unbounded, a deposit below what is due is the package's own error, as it always was.
    if (bound === undefined) return null;
    if (amount > bound) {
      return `A channel deposit of ${formatUsdc(amount)} is above the most one deposit may put in (${formatUsdc(bound)}); configure a smaller deposit.`;
    }
    if (amount < needed) {
      // A configured deposit is asked as it is (not raised to the bound): it is the one too small.
      return options.channel.deposit !== undefined
        ? `The configured channel deposit of ${formatUsdc(amount)} cannot pay this check (${formatUsdc(needed)} is due); configure a larger deposit.`
        : `A channel deposit of at most ${formatUsdc(bound)} cannot pay this check (${formatUsdc(needed)} is due).`;
    }
    return null;
  }

  async function delivered<R extends Report | DeepReport>(
    payment: ChannelPayment,
    answer: Response,
    authorization: SentAuthorization,
  ): Promise<PaidOutcome<R>> {
    // The record's nonce as this client computed it: the answer is not trusted to name it.
    const settlement: Settlement = {
      transaction: authorization.nonce,
      network: payment.requirement.network,
      payer: authorization.payer,
      amount: payment.requirement.amount,
      payTo: payment.requirement.payTo as Address,
      viaChannel: true,
    };
    options.emit({ type: "settled", settlement });
    const body: unknown = await answer.json().catch(() => undefined);
    const schema = payment.route === "/deep" ? DeepReportSchema : ReportSchema;
    const report = schema.safeParse(body);
    if (!report.success) {
      return {
        type: "unrecovered",
        charged: true,
        settlement,
        authorization,
        message: "Paid over the channel, but the report is unreadable.",
        recover: `GET ${options.base}/receipts/${authorization.payer}/${authorization.nonce}?signature=<the payer's EIP-191 signature of "presend receipt ${authorization.nonce}">, once the channel's next claim covers it.`,
      };
    }
    const verified = await verifyReportSignature({
      signature: answer.headers.get(reportSignatureHeader),
      report: body,
      settlement: {
        transaction: authorization.nonce,
        network: settlement.network,
        payer: authorization.payer,
      },
      key: payment.pin.jwk,
    });
    if (verified.type === "forged") {
      return { type: "forged", charged: true, settlement, report: body, message: verified.message };
    }
    return {
      type: "report",
      report: report.data as R,
      settlement,
      signature: "verified",
      receipt: null,
      recovered: false,
      charged: true,
    };
  }
}

/** The channel a signed payload opens or uses, and the deposit it carries (null: a voucher). */
function channelOf(payload: PaymentPayload): {
  payer: Address;
  receiver: string;
  token: string;
  channelId: Hex;
  cumulative: bigint;
  deposit: bigint | null;
} | null {
  const raw = payload.payload as {
    type?: unknown;
    channelConfig?: { payer?: unknown; receiver?: unknown; token?: unknown };
    voucher?: { channelId?: unknown; maxClaimableAmount?: unknown };
    deposit?: { amount?: unknown };
  };
  const config = raw.channelConfig;
  const voucher = raw.voucher;
  if (
    typeof config?.payer !== "string" ||
    typeof config.receiver !== "string" ||
    typeof config.token !== "string" ||
    typeof voucher?.channelId !== "string" ||
    typeof voucher.maxClaimableAmount !== "string" ||
    !/^\d+$/.test(voucher.maxClaimableAmount)
  ) {
    return null;
  }
  const amount = raw.deposit?.amount;
  if (raw.type === "deposit" && (typeof amount !== "string" || !/^\d+$/.test(amount))) return null;
  return {
    payer: config.payer as Address,
    receiver: config.receiver,
    token: config.token,
    channelId: voucher.channelId as Hex,
    cumulative: BigInt(voucher.maxClaimableAmount),
    deposit: raw.type === "deposit" ? BigInt(amount as string) : null,
  };
}

async function errorBodyOf(
  answer: Response,
): Promise<{ code: string; message: string } | undefined> {
  const body = ErrorBodySchema.safeParse(
    await answer
      .clone()
      .json()
      .catch(() => null),
  );
  return body.success ? body.data.error : undefined;
}

function reasonOf(answer: Response): string | undefined {
  try {
    const header = answer.headers.get("payment-required");
    return header === null ? undefined : decodePaymentRequiredHeader(header).error;
  } catch {
    return undefined;
  }
}

function refused(message: string) {
  return {
    type: "refused" as const,
    code: "unexpected_challenge" as const,
    message,
    charged: false as const,
  };
}

function unknownOutcome(message: string, authorization: SentAuthorization, base: string) {
  return {
    type: "unrecovered" as const,
    charged: "unknown" as const,
    settlement: null,
    authorization,
    message: `${message} Charged: unknown.`,
    recover: `GET ${base}/receipts/${authorization.payer}/${authorization.nonce}?signature=<the payer's EIP-191 signature of "presend receipt ${authorization.nonce}"> answers the report if it was charged.`,
  };
}
