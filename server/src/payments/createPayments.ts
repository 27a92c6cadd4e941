import { type FacilitatorClient, x402ResourceServer } from "@x402/core/server";
import type { PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/server";
import { bazaarResourceServerExtension } from "@x402/extensions/bazaar";
import { paymentIdentifierResourceServerExtension } from "@x402/extensions/payment-identifier";
import { type Logger, pino } from "pino";
import type { Address, Hex } from "viem";
import { limits } from "../limits";
import { createLogger } from "../observability/createLogger";
import { reportErrors } from "../observability/reportErrors";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { attestationExtension } from "./attestation/attestationExtension";
import { type Attestation, createAttestation } from "./attestation/createAttestation";
import { createAttestationSigner } from "./attestation/createAttestationSigner";
import { createReportSigner, type ReportSigner } from "./attestation/createReportSigner";
import { didJwkKeyId } from "./attestation/didJwk";
import { keptReportSignature } from "./attestation/keptReportSignature";
import {
  offerReceiptExtension,
  type SettlementReceipt,
  settlementReceipt,
} from "./attestation/offerReceiptExtension";
import { channelRecordValidBefore } from "./channels/channelLedger";
import type { ChannelStore } from "./channels/channelStore";
import { createChannelChain } from "./channels/createChannelChain";
import { type ChannelOption, type Channels, createChannels } from "./channels/createChannels";
import { facilitatorSettlesChannels } from "./channels/facilitatorSettlesChannels";
import { refuseWithdrawingChannels } from "./channels/refuseWithdrawingChannels";
import { releaseFailedChannelSettlements } from "./channels/releaseFailedChannelSettlements";
import { createFacilitatorClient } from "./facilitator/createFacilitatorClient";
import { createLocalFacilitator } from "./facilitator/createLocalFacilitator";
import {
  createPayerMessageVerifier,
  type PayerMessageVerifier,
} from "./facilitator/createPayerMessageVerifier";
import { createPaymentChain, type PaymentChain } from "./facilitator/createPaymentChain";
import type { SenderJournal } from "./facilitator/fileSenderJournal";
import { guardedFacilitator } from "./facilitator/guardedFacilitator";
import { type WatchedFacilitator, watchedFacilitator } from "./facilitator/watchedFacilitator";
import type { PaidPath } from "./paidRoutes";
import {
  type PaymentsConfig,
  type PaymentsConfigInput,
  PaymentsConfigSchema,
} from "./paymentsConfig";
import { maxTimeoutSeconds } from "./paymentTerms";
import { createPaymentRecords, type PaymentRecords } from "./records/paymentRecords";
import { recordSettlements } from "./settlement/recordSettlements";

/** Timings of the facilitator calls of one payment, for the bench breakdown. */
export type PaymentTiming = { phase: "verify" | "settle"; ms: number };

export type CreatePaymentsOptions = {
  /** The server's logger (composeServer's); without one, JSON lines on stderr at `warn`. */
  logger?: Logger;
  onTiming?: (timing: PaymentTiming) => void;
  /** How long the in-process facilitator waits for a settlement to be mined (default 30 s). */
  confirmationTimeoutMs?: number;
  /**
   * Where the server keeps its batch-settlement channels: with `receiverAuthorizerKey` in the
   * config, the scheme is offered beside `exact` when the facilitator settles it (off without
   * both).
   */
  channelStore?: ChannelStore;
  /**
   * CHANNELS=on: a facilitator that does not settle batch-settlement on the network stops
   * start-up instead of leaving the server with `exact` only.
   */
  channelsRequired?: boolean;
  /**
   * False (CHANNELS=off) with a `channelStore` that still holds channels: they are not offered
   * any more, only claimed and refunded (`closingChannels`). Default true.
   */
  channelsOffered?: boolean;
  /**
   * What the operator set to choose a remote facilitator (composeServer's description), named
   * when its supported kinds cannot be read; FACILITATOR_URL without it.
   */
  facilitatorSetting?: string;
  /** How old the last finding about the facilitator may be before /readyz probes it again. */
  facilitatorProbeMs?: number;
  /** Wraps the attestation key's report signer (tests make it fail). */
  wrapReportSigner?: (sign: ReportSigner) => ReportSigner;
  /**
   * Where the in-process facilitator keeps its unmined settlements, so the next start sends them
   * again at a higher fee (a remote facilitator keeps its own).
   */
  facilitatorJournal?: { journal: SenderJournal; onError: (error: unknown) => void };
};

export type Payments = {
  config: PaymentsConfig;
  /**
   * Where the payment side reports what goes wrong (a failed claim, a record not written, a lock
   * store down): one JSON line each, the server's log (the paid routes report through it too).
   */
  logger: Logger;
  /** The official x402 resource server (ExactEvmScheme on Base, attestation extension). */
  resourceServer: x402ResourceServer;
  facilitator: FacilitatorClient;
  /** Whether the facilitator answered last (each paid request, start-up, probes): /readyz and /metrics show it. */
  facilitatorWatch: Pick<WatchedFacilitator, "reachability" | "probe">;
  /** Address of the in-process facilitator's settlement account (local mode only). */
  facilitatorAddress: Address | null;
  /** The payment chain as the bookkeeping reads it (authorization state, settlement lookup). */
  chain: PaymentChain;
  /** A payer's message signature (/receipts, Sign-In-With-X) as the payment chain checks it. */
  verifyPayerMessage: PayerMessageVerifier;
  /** The payment records' one owner: every write to a record goes through it. */
  records: PaymentRecords;
  attestation: Attestation;
  /**
   * Signs a paid report with its settlement (attestation key), once: a report answered again
   * carries the signature its record kept.
   */
  signReport: ReportSigner;
  /** The signed offer-receipt of a settlement answered again from its record. */
  settlementReceipt: SettlementReceipt;
  /**
   * The exact-scheme option of a paid route (network, payTo, USDC price, validity): the one
   * source of its payment requirements, for the route's x402 config and for `requirements`.
   */
  paymentOption(path: PaidPath): ReturnType<typeof paymentOptionOf>;
  /** Every option a paid route accepts: `exact` first, then `batch-settlement` when offered. */
  accepts(path: PaidPath): [ReturnType<typeof paymentOptionOf>, ...ChannelOption[]];
  /** The batch-settlement channels (scheme, store, manager schedule), or null when not offered. */
  channels: Channels | null;
  /**
   * Channels payers still hold that are no longer offered (CHANNELS=off after they were): what
   * they were charged is claimed and the rest refunded, no voucher taken. Null otherwise.
   */
  closingChannels: Channels | null;
  /** The payment requirements of a paid route (every accepted scheme), as the 402 header carries them. */
  requirements(path: PaidPath): Promise<PaymentRequirements[]>;
  /** Resolves once the facilitator's supported kinds are loaded. */
  ready(): Promise<void>;
};

/**
 * Builds everything payment-related from config: facilitator (in process or remote), the x402
 * resource server with the exact EVM scheme, and the signed payee attestation.
 * Every settlement ends in its record (`recordSettlements`, on the resource server's settle hooks).
 * @example const payments = await createPayments({ baseRpcUrls, facilitator: { type: "local", privateKey }, payTo, attestationKey }, store);
 */
export async function createPayments(
  input: PaymentsConfigInput,
  store: PaymentRecordStore,
  options: CreatePaymentsOptions = {},
): Promise<Payments> {
  const config = PaymentsConfigSchema.parse(input);
  // Never console.error: viem's text of one failed call is twenty lines with the RPC URL and the
  // call data, outside the JSON log a shipper indexes.
  const logger =
    options.logger ??
    createLogger({ level: "warn", name: "presend-payments" }, pino.destination(2));
  const chain = createPaymentChain({
    rpcUrls: config.baseRpcUrls,
    chainId: Number(config.network.split(":")[1]),
    asset: config.asset as Address,
  });
  let facilitatorAddress: Address | null = null;
  let facilitator: FacilitatorClient;
  let broadcastFor: ((payer: string, nonce: string) => Hex | null | undefined) | undefined;
  if (config.facilitator.type === "local") {
    const local = createLocalFacilitator({
      network: config.network,
      rpcUrls: config.baseRpcUrls,
      privateKey: config.facilitator.privateKey as Hex,
      batchSettlement: config.receiverAuthorizerKey !== undefined,
      ...(options.confirmationTimeoutMs !== undefined && {
        confirmationTimeoutMs: options.confirmationTimeoutMs,
      }),
      ...options.facilitatorJournal,
    });
    facilitatorAddress = local.address;
    facilitator = local;
    broadcastFor = local.broadcastFor;
  } else {
    facilitator = await createFacilitatorClient(config.facilitator);
  }
  const records = createPaymentRecords({
    store,
    chain,
    claimDecidedFrom: channelRecordValidBefore,
    payTo: config.payTo,
    onUnwritten: reportErrors(logger, "payment record not marked as the chain decided", "error"),
  });
  const watched = watchedFacilitator(facilitator, {
    probeAfterMs: options.facilitatorProbeMs ?? limits.facilitatorProbeMs,
  });
  const guarded = guardedFacilitator(watched.client, { chain });
  const timed = options.onTiming ? withTiming(guarded, options.onTiming) : guarded;
  const attestation = await createAttestation({
    key: config.attestationKey,
    payTo: config.payTo,
    maxPrice: config.prices,
    network: config.network,
    asset: config.asset,
  });
  const signer = await createAttestationSigner(config.attestationKey);
  // Offers and receipts name the same key as a did:jwk, which the official verify functions
  // resolve by themselves; the report signature keeps the kid clients pin.
  const offerSigner = await createAttestationSigner(config.attestationKey, {
    kid: didJwkKeyId(config.attestationKey),
  });
  const channelStore = config.receiverAuthorizerKey ? options.channelStore : undefined;
  const channelsOffered = options.channelsOffered !== false;
  const builtChannels =
    channelStore &&
    (await facilitatorSettlesChannels(watched.client, config.network, {
      required: options.channelsRequired === true,
      warn: (reason) =>
        channelsOffered
          ? logger.warn({ reason }, "channels not offered")
          : logger.error({ reason }, "channels left open cannot be closed"),
      ...(options.facilitatorSetting && { setting: options.facilitatorSetting }),
    }))
      ? createChannels({
          network: config.network,
          payTo: config.payTo as Address,
          asset: config.asset as Address,
          receiverAuthorizerKey: config.receiverAuthorizerKey as Hex,
          store: channelStore,
          records,
          chain: createChannelChain({ rpcUrls: config.baseRpcUrls }),
          onError: reportErrors(logger, "channel job failed"),
        })
      : null;
  const channels = channelsOffered ? builtChannels : null;
  const closingChannels = channelsOffered ? null : builtChannels;
  const resourceServer = new x402ResourceServer(timed).register(
    config.network,
    new ExactEvmScheme(),
  );
  // Before recordSettlements, which recovers every failure: a failed channel settlement frees
  // the channel it reserved first.
  if (channels) {
    releaseFailedChannelSettlements(
      resourceServer,
      channels.scheme,
      reportErrors(logger, "channel reservation not released"),
    );
  }
  recordSettlements(resourceServer, {
    records,
    chain,
    ...(broadcastFor && { broadcastFor }),
    onError: reportErrors(logger, "payment record failed", "error"),
  });
  if (channels) {
    resourceServer.register(config.network, channels.scheme);
    refuseWithdrawingChannels(resourceServer, channels.store);
    channels.manage(timed);
  }
  closingChannels?.manage(timed);
  resourceServer
    .registerExtension(attestationExtension(attestation))
    .registerExtension(bazaarResourceServerExtension)
    .registerExtension(paymentIdentifierResourceServerExtension)
    .registerExtension(offerReceiptExtension(offerSigner));

  const accepts = (path: PaidPath): [ReturnType<typeof paymentOptionOf>, ...ChannelOption[]] => [
    paymentOptionOf(config, path),
    ...(channels ? [channels.option(config.prices[path], maxTimeoutSeconds)] : []),
  ];
  let initialized: Promise<void> | null = null;
  const ready = () => {
    initialized ??= resourceServer.initialize().catch((error: unknown) => {
      initialized = null;
      throw error;
    });
    return initialized;
  };
  return {
    config,
    logger,
    resourceServer,
    facilitator: timed,
    facilitatorWatch: watched,
    facilitatorAddress,
    chain,
    verifyPayerMessage: createPayerMessageVerifier({ rpcUrls: config.baseRpcUrls }),
    records,
    attestation,
    signReport: keptReportSignature(
      records,
      options.wrapReportSigner
        ? options.wrapReportSigner(createReportSigner(signer))
        : createReportSigner(signer),
    ),
    settlementReceipt: settlementReceipt(offerSigner),
    ready,
    paymentOption: (path) => paymentOptionOf(config, path),
    accepts,
    channels,
    closingChannels,
    async requirements(path) {
      await ready();
      const built = await Promise.all(
        accepts(path).map((option) => resourceServer.buildPaymentRequirements(option)),
      );
      return built.flat();
    },
  };
}

function paymentOptionOf(config: PaymentsConfig, path: PaidPath) {
  return {
    scheme: "exact" as const,
    network: config.network,
    payTo: config.payTo,
    price: { asset: config.asset, amount: config.prices[path], extra: { ...config.assetDomain } },
    maxTimeoutSeconds,
  };
}

function withTiming(
  inner: FacilitatorClient,
  onTiming: (timing: PaymentTiming) => void,
): FacilitatorClient {
  const time = async <T>(phase: PaymentTiming["phase"], run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      onTiming({ phase, ms: performance.now() - start });
    }
  };
  return {
    verify: (payload, requirements) => time("verify", () => inner.verify(payload, requirements)),
    settle: (payload, requirements) => time("settle", () => inner.settle(payload, requirements)),
    getSupported: () => inner.getSupported(),
  };
}
