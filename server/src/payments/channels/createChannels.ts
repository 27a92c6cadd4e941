import { nativeUsdcDomain } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { FacilitatorClient } from "@x402/core/server";
import type { Network, PaymentPayload, SettleResponse } from "@x402/core/types";
import {
  type AuthorizerSigner,
  type BatchSettlementVoucherClaim,
  isBatchSettlementClaimPayload,
  isBatchSettlementEnrichedRefundPayload,
} from "@x402/evm";
import { computeChannelId } from "@x402/evm/batch-settlement/client";
import {
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme,
  type ClaimResult,
} from "@x402/evm/batch-settlement/server";
import { type Address, getAddress, type Hex, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createMemoryInFlightLock } from "../../paymentRecords/createMemoryInFlightLock";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import type { PaymentRecords } from "../records/paymentRecords";
import { type ChannelJobLeader, channelJobLeader } from "./channelJobLeader";
import type { ChannelPayment } from "./channelPaymentOf";
import { type ChannelSchedule, channelSchedule } from "./channelSchedule";
import type { Channel, ChannelStore } from "./channelStore";
import type { ChannelChain } from "./createChannelChain";
import { type ChannelReconcileResult, reconcileChannelCharges } from "./reconcileChannelCharges";
import { selectIdleRefunds } from "./selectIdleRefunds";
import { settleOutstanding } from "./settleOutstanding";
import { syncWithEscrow } from "./syncWithEscrow";

// Read by the receipts' answer for a voucher not yet claimed (when to ask again).
export { channelSchedule };

/** The timeout the channel manager's claims, settlements and refunds are sent with. */
const operationTimeoutSeconds = 60;

/** The payer's timed-withdrawal delay the server asks for (the escrow's minimum). */
export const channelWithdrawDelaySeconds = 900;

export type ChannelsOptions = {
  network: Network;
  payTo: Address;
  asset: Address;
  /** The server's key that authorizes claims and refunds (the channel's receiverAuthorizer). */
  receiverAuthorizerKey: Hex;
  store: ChannelStore;
  /** The payment records, through which the claims' reconciler settles the vouchers' records. */
  records: PaymentRecords;
  /** The escrow as the books read it (claimed totals, Claimed events). */
  chain: ChannelChain;
  /**
   * Where a failed claim, settlement or refund run (the manager's jobs) and a failed
   * reconciliation are reported (the server's log); each is tried again on its next run.
   */
  onError: (error: unknown) => void;
};

export type Channels = {
  /** The official server scheme, registered on the resource server beside `exact`. */
  scheme: BatchSettlementEvmScheme;
  store: ChannelStore;
  receiverAuthorizer: Address;
  /** The route's `batch-settlement` payment option (same payTo, price and asset as `exact`). */
  option(amount: string, maxTimeoutSeconds: number): ChannelOption;
  /**
   * Whether the channel would take this voucher now, as far as its stored state tells (a known
   * channel, not serving another request, no withdrawal of its payer's seen, the voucher's
   * ceiling exactly its charged total plus `price`, within its balance). Only a hint, read before the scheme verifies anything: the
   * scheme still decides.
   */
  takesVoucher(payment: ChannelPayment, price: bigint): Promise<boolean>;
  /** Builds the channel manager over the facilitator the resource server uses. */
  manage(facilitator: FacilitatorClient): BatchSettlementChannelManager;
  /** The channel manager built by `manage` (claims, settlement, refunds on demand). */
  manager(): BatchSettlementChannelManager;
  /**
   * Claims now what the claim job would: every channel's charged vouchers, each cut to what the
   * escrow can still pay (syncWithEscrow), whoever leads the job.
   */
  claim(): Promise<ClaimResult[]>;
  /** Settles the records of claimed channel payments from the escrow (also run after each claim). */
  reconcile(): Promise<ChannelReconcileResult>;
  /**
   * Starts claiming, settling and refunding idle channels on the schedule (channelSchedule
   * unless given), and settles once what the escrow holds claimed and unsettled for payTo.
   * With the fleet's lease store (`lock`), one replica at a time claims and refunds
   * (channelJobLeader); without one, this process always does.
   */
  start(schedule?: ChannelSchedule, lock?: InFlightLock): void;
  /**
   * Starts as `start` does for channels no longer offered (CHANNELS=off after they were): no
   * voucher comes any more, so every channel is refunded now (what was charged claimed first, the
   * rest sent back to its payer), not after a day idle, and again on each refund run for a
   * channel that was busy or whose refund failed.
   */
  startClosing(schedule?: ChannelSchedule, lock?: InFlightLock): void;
  /**
   * Stops the schedule, claims what is outstanding and settles everything the escrow holds
   * claimed and unsettled for payTo, whoever claimed it (the drain).
   */
  stop(): Promise<void>;
};

export type ChannelOption = {
  scheme: "batch-settlement";
  network: Network;
  payTo: Address;
  price: { asset: Address; amount: string; extra: Record<string, unknown> };
  maxTimeoutSeconds: number;
};

/**
 * The x402 `batch-settlement` scheme on the server side, with the official `@x402/evm` scheme and
 * channel manager only: channels in the durable ChannelStore, a receiver authorizer the server
 * owns, and claims after which the payment records of the vouchers they cover are settled (with
 * the claim transaction the escrow's events name), so every voucher-paid request ends `settled`
 * like an `exact` one.
 * @example const channels = createChannels({ network, payTo, asset, receiverAuthorizerKey, store, records, chain, onError });
 */
export function createChannels(options: ChannelsOptions): Channels {
  const { store, records, chain, network, onError } = options;
  const authorizer = privateKeyToAccount(options.receiverAuthorizerKey);
  const receiverAuthorizerSigner: AuthorizerSigner = {
    address: authorizer.address,
    signTypedData: (params) => authorizer.signTypedData(params as TypedDataDefinition),
  };
  const scheme = new BatchSettlementEvmScheme(options.payTo, {
    receiverAuthorizerSigner,
    storage: store,
    withdrawDelay: channelWithdrawDelaySeconds,
  });
  let manager: BatchSettlementChannelManager | null = null;
  let startSettle: Promise<void> = Promise.resolve();
  // The leases of the claim and refund jobs, once started.
  let leaders: { claim: ChannelJobLeader; refund: ChannelJobLeader } | null = null;
  const { payTo, asset } = options;
  // The facilitator the manager was built over (manage()).
  let settling: FacilitatorClient | null = null;
  /**
   * Payees other than payTo that channels in the store name: channels opened before PAY_TO
   * was changed. Their claims pay the payee the channel names, so each is swept to it too; the
   * manager settles only payTo. Kept once seen: a refunded channel leaves the store.
   */
  const earlierPayees = new Set<Address>();
  const notePayees = (channels: Channel[]) => {
    for (const channel of channels) {
      const receiver = getAddress(channel.channelConfig.receiver);
      if (receiver !== getAddress(payTo)) earlierPayees.add(receiver);
    }
  };
  // What the escrow can still pay, read right before each claim or refund (syncWithEscrow).
  const payable = (channels: Channel[], now: number) => {
    notePayees(channels);
    return syncWithEscrow(channels, { store, chain, onError, now });
  };
  /** Sends the escrow's settle(receiver, asset) for a payee other than payTo. */
  const settleEarlierPayee = async (receiver: Address) => {
    if (settling === null)
      throw new ConfigurationError("the channel manager is built with manage()");
    const requirements = {
      scheme: "batch-settlement",
      network,
      asset,
      amount: "0",
      payTo: receiver,
      maxTimeoutSeconds: operationTimeoutSeconds,
      extra: {},
    };
    const result = await settling.settle(
      {
        x402Version: 2,
        accepted: requirements,
        payload: { type: "settle", receiver, token: asset },
      } as PaymentPayload,
      requirements,
    );
    if (!result.success) {
      throw new UpstreamError(
        `settling what was claimed for the earlier payee ${receiver} failed: ${result.errorReason ?? "no reason given"}`,
        { code: "channel_settlement_failed" },
      );
    }
    return { transaction: result.transaction };
  };
  /** Sweeps what the escrow holds claimed and unsettled for every earlier payee seen. */
  const settleEarlierPayees = async () => {
    for (const receiver of earlierPayees) {
      await settleOutstanding({
        chain,
        payTo: receiver,
        asset,
        settle: () => settleEarlierPayee(receiver),
      });
    }
  };
  const outstandingSettle = () => {
    if (manager === null)
      throw new ConfigurationError("the channel manager is built with manage()");
    return manager.settle();
  };

  function recording(facilitator: FacilitatorClient): FacilitatorClient {
    return {
      verify: (payload, requirements) => facilitator.verify(payload, requirements),
      async settle(payload: PaymentPayload, requirements): Promise<SettleResponse> {
        // The manager's own operations name no timeout (0), which x402's wire schema refuses,
        // as `presend facilitator` checks it: they get the routes' timeout instead.
        const timed = <T extends { maxTimeoutSeconds: number }>(value: T): T =>
          value.maxTimeoutSeconds > 0
            ? value
            : { ...value, maxTimeoutSeconds: operationTimeoutSeconds };
        const result = await facilitator.settle(
          { ...payload, accepted: timed(payload.accepted) },
          timed(requirements),
        );
        const raw: unknown = payload.payload;
        const claims =
          isBatchSettlementClaimPayload(raw) || isBatchSettlementEnrichedRefundPayload(raw)
            ? (raw as { claims?: BatchSettlementVoucherClaim[] }).claims
            : undefined;
        if (result.success && result.transaction && claims) {
          // The records of the vouchers it covers are settled from the escrow's own events.
          const channelIds = claims.map((claim) =>
            computeChannelId(claim.voucher.channel, network),
          );
          await reconcileChannelCharges({ store, records, chain, channelIds }).catch(onError);
          // Claimed for a payee the manager does not settle: swept to it now.
          for (const claim of claims) {
            const receiver = getAddress(claim.voucher.channel.receiver);
            if (receiver !== getAddress(payTo)) earlierPayees.add(receiver);
          }
          if (earlierPayees.size > 0) await settleEarlierPayees().catch(onError);
        }
        return result;
      },
      getSupported: () => facilitator.getSupported(),
    };
  }

  return {
    scheme,
    store,
    receiverAuthorizer: authorizer.address,
    option: (amount, maxTimeoutSeconds) => ({
      scheme: "batch-settlement",
      network,
      payTo: options.payTo,
      price: { asset: options.asset, amount, extra: { ...nativeUsdcDomain } },
      maxTimeoutSeconds,
    }),
    async takesVoucher(payment, price) {
      if (payment.type !== "voucher") return false;
      const channel = await store.get(payment.channelId);
      if (channel === undefined) return false;
      const busy = (channel.pendingRequest?.expiresAt ?? 0) > Date.now();
      return (
        !busy &&
        channel.withdrawRequestedAt === 0 &&
        BigInt(channel.chargedCumulativeAmount) + price === payment.cumulative &&
        payment.cumulative <= BigInt(channel.balance)
      );
    },
    manage(facilitator) {
      settling = facilitator;
      manager = scheme.createChannelManager(recording(facilitator), network, options.asset);
      return manager;
    },
    manager() {
      if (manager === null)
        throw new ConfigurationError("the channel manager is built with manage()");
      return manager;
    },
    claim() {
      if (manager === null)
        throw new ConfigurationError("the channel manager is built with manage()");
      return manager.claim({
        selectClaimChannels: (channels, context) => payable(channels, context.now),
      });
    },
    reconcile: () => reconcileChannelCharges({ store, records, chain }),
    startClosing(schedule = channelSchedule, lock = createMemoryInFlightLock()) {
      this.start({ ...schedule, idleRefundSecs: 0 }, lock);
      const current = manager;
      if (current === null || leaders === null) return;
      const { claim, refund } = leaders;
      const started = startSettle;
      // The refund job would first run an interval from now (an hour by default): payers get
      // their rest back at start instead.
      startSettle = (async () => {
        await started;
        if (await claim.lead()) {
          await current.claim({
            selectClaimChannels: (channels, context) => payable(channels, context.now),
          });
        }
        if (!(await refund.lead())) return;
        const now = Date.now();
        const left = selectIdleRefunds(await payable(await store.list(), now), { now, idleMs: 0 });
        if (left.length > 0) await current.refund(left.map((channel) => channel.channelId));
        await settleOutstanding({ chain, payTo, asset, settle: outstandingSettle });
      })().catch(onError);
    },
    start(schedule = channelSchedule, lock = createMemoryInFlightLock()) {
      if (manager === null) return;
      const idleMs = schedule.idleRefundSecs * 1000;
      leaders = {
        claim: channelJobLeader(lock, "claim", schedule.claimIntervalSecs * 1000),
        refund: channelJobLeader(lock, "refund", schedule.refundIntervalSecs * 1000),
      };
      const { claim, refund } = leaders;
      manager.start({
        claimIntervalSecs: schedule.claimIntervalSecs,
        settleIntervalSecs: schedule.settleIntervalSecs,
        refundIntervalSecs: schedule.refundIntervalSecs,
        // Also the drain's claim at stop: a replica that does not lead leaves it to the leader.
        selectClaimChannels: async (channels, context) =>
          (await claim.lead()) ? payable(channels, context.now) : [],
        selectRefundChannels: async (channels, context) => {
          if (!(await refund.lead())) return [];
          const idle = selectIdleRefunds(channels, { now: context.now, idleMs });
          // Selected again once synced: a channel its payer emptied has nothing left to refund.
          return selectIdleRefunds(await payable(idle, context.now), { now: context.now, idleMs });
        },
        onError,
      });
      // The manager settles only after a claim of its own process: what a previous process (or
      // another replica) claimed and never settled goes to payTo now, not after the next claim.
      startSettle = (async () => {
        notePayees(await store.list());
        await settleOutstanding({ chain, payTo, asset, settle: outstandingSettle });
        await settleEarlierPayees();
      })().then(() => undefined, onError);
    },
    async stop() {
      await startSettle;
      if (manager === null) return;
      let failure: unknown = null;
      await manager.stop({ flush: true }).catch((error: unknown) => {
        failure = error;
      });
      // The flush settles only what it claimed itself: a claim the interval job made just
      // before, and whose settle job never ran, is settled here from the escrow's own totals.
      await settleOutstanding({ chain, payTo, asset, settle: outstandingSettle }).catch(
        (error: unknown) => {
          failure ??= error;
        },
      );
      await settleEarlierPayees().catch((error: unknown) => {
        failure ??= error;
      });
      // Another replica leads from its next run on, not after this one's lease lapses.
      await Promise.all([leaders?.claim.resign(), leaders?.refund.resign()]);
      if (failure !== null) throw failure;
    },
  };
}
