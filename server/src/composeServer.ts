import { existsSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { calculateJwkThumbprint } from "jose";
import { createApp } from "./app";
import { type ChainReader, createChainReader } from "./chain/createChainReader";
import { defaultRpcUrls } from "./chain/defaultRpcUrls";
import { createHistoryReader } from "./chain/history/createHistoryReader";
import { wrongChainEndpoints } from "./chain/wrongChainEndpoints";
import { type Config, ConfigError } from "./config/loadConfig";
import { registerDataRoutes } from "./data/dataRoutes";
import { type LoadedSnapshots, loadSnapshots } from "./data/loadSnapshots";
import { createEngine, type Engine } from "./engine/createEngine";
import { cachedProbe } from "./health/cachedProbe";
import { clockCheck } from "./health/clockCheck";
import { probeChains } from "./health/probeChains";
import type { App } from "./http/appEnv";
import { loadAddressLists } from "./lists/loadAddressLists";
import { loggedError } from "./observability/loggedError";
import { reportErrors } from "./observability/reportErrors";
import { composeOperations, type Operations } from "./operations/composeOperations";
import { createMemoryInFlightLock } from "./paymentRecords/createMemoryInFlightLock";
import { importLegacyReceipts, legacyReceiptsFile } from "./paymentRecords/importLegacyReceipts";
import type { InFlightLock } from "./paymentRecords/inFlightLock";
import { openSqlitePaymentRecords } from "./paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "./paymentRecords/paymentRecordStore";
import {
  loadAttestationKey,
  publicAttestationKey,
} from "./payments/attestation/loadAttestationKey";
import { loadPreviousAttestationKeys } from "./payments/attestation/loadPreviousAttestationKeys";
import type { ChannelStore } from "./payments/channels/channelStore";
import { loadReceiverAuthorizerKey } from "./payments/channels/loadReceiverAuthorizerKey";
import { openPostgresChannelStore } from "./payments/channels/openPostgresChannelStore";
import { openSqliteChannelStore } from "./payments/channels/openSqliteChannelStore";
import {
  type CreatePaymentsOptions,
  createPayments,
  type Payments,
} from "./payments/createPayments";
import { fileSenderJournal } from "./payments/facilitator/fileSenderJournal";
import { requireExactSettlement } from "./payments/facilitator/requireExactSettlement";
import { facilitatorStates } from "./payments/facilitator/watchedFacilitator";
import type { PaidPath } from "./payments/paidRoutes";
import { paymentNetworks } from "./payments/paymentNetworks";
import { failedRequestAnswer } from "./payments/resourceServer/failedRequestAnswer";
import { registerDiscoveryRoute } from "./payments/routes/registerDiscoveryRoute";
import { registerPaidRoutes } from "./payments/routes/registerPaidRoutes";
import { createSignInState } from "./payments/siwx/createSignInState";
import { registerSignInSecurityScheme } from "./payments/siwx/registerSignInSecurityScheme";
import { signedInPayer } from "./payments/siwx/signedInPayer";
import { registerReceiptRoute } from "./receipts/registerReceiptRoute";
import { claimFleetIdentity } from "./redis/claimFleetIdentity";
import { openRedisChannelStore, redisKeepsWrites } from "./redis/openRedisChannelStore";

export type ComposedServer = {
  app: App;
  engine: Engine;
  reader: ChainReader;
  payments: Payments;
  /** The write-ahead payment records (pending -> settled | unknown | failed) and receipts. */
  records: PaymentRecordStore;
  snapshots: LoadedSnapshots;
  rpcUrls: Record<ChainName, string[]>;
  /** Settles open payment records from the chain now (also run at start and periodically). */
  reconcile: () => ReturnType<Payments["records"]["reconcile"]>;
  /** Logger, metrics, shared stores (PostgreSQL, Redis) and the draining flag. */
  operations: Operations;
  /** Releases what composing opened (the records database, the timer). */
  close: () => Promise<void>;
};

/** The in-process facilitator's journal of unmined settlements, in DATA_DIR. */
export const facilitatorJournalFile = "facilitator-journal.json";

/** How often open payment records are reconciled with the chain. */
export const reconcileIntervalMs = 30_000;
/** How long one /health reading is shared. */
export const healthCacheMs = 3_000;
/** How long /readyz shares one probe write of the payment records store. */
export const recordsProbeMs = 1_000;

export type ComposeOptions = CreatePaymentsOptions & {
  /** The public base URL the documents name (main.ts derives it from the bound port). */
  publicUrl: string;
  /** Wraps the engine the paid routes use (the bench times it). */
  wrapEngine?: (engine: Engine) => Engine;
  /** The payment record store (default: SQLite in the data dir); a server database plugs in here. */
  records?: PaymentRecordStore;
  /** The per-authorization lock (default: in memory); a shared one plugs in here. */
  lock?: InFlightLock;
  /** The one Base RPC payments verify and settle through (default: every Base RPC URL, in order). */
  paymentRpcUrl?: string;
  /** Further middleware before every route, inside the operations' own (tests put faults here). */
  beforeRoutes?: Array<(app: App) => void>;
  /**
   * The paid routes' prices in USDC base units (default: routePrices). A release that changes
   * routePrices changes them; tests start a server at other prices to play one.
   */
  prices?: Record<PaidPath, string>;
};

/**
 * Builds the whole API from config without binding a port: reader, engine, payments (facilitator,
 * attestation), payment records (reconciled with the chain at start and every 30 s), snapshot
 * documents, and every route. `startServer` listens on it; tests
 * and the bench call `app.request` or listen themselves.
 * Everything comes from `config`: on the local network `npm start` fills the RPC URLs, payTo and
 * the facilitator key from the world it started (`localDemo/worldConfig.ts`).
 * @example const server = await composeServer(config, { publicUrl: "http://127.0.0.1:8402" });
 */
export async function composeServer(
  config: Config,
  options: ComposeOptions,
): Promise<ComposedServer> {
  const rpcUrls = Object.fromEntries(
    chainNames.map((name) => [
      name,
      // An explicit RPC_URLS_* wins, then the public defaults.
      config.rpcUrls[name] ?? defaultRpcUrls[name],
    ]),
  ) as Record<ChainName, string[]>;
  // An RPC URL of another chain (RPC_URLS_ETHEREUM given an Arbitrum endpoint) would have every
  // paid report on that chain describe another one: start-up stops, naming the setting.
  const wrongChains = await wrongChainEndpoints(
    chainNames.flatMap((name) => {
      const upper = name.toUpperCase();
      return [
        { setting: `RPC_URLS_${upper}`, chain: name, urls: config.rpcUrls[name] ?? [] },
        {
          setting: `HISTORY_RPC_URLS_${upper}`,
          chain: name,
          urls: config.historyRpcUrls[name] ?? [],
        },
      ];
    }),
    { timeoutMs: config.rpcTimeoutMs },
  );
  if (wrongChains.length > 0) throw new ConfigError(wrongChains.join("\n"));
  const operations = await composeOperations(config);
  const reader = createChainReader({
    rpcUrls,
    timeoutMs: config.rpcTimeoutMs,
    ttlMs: config.cacheTtlMs,
    fetch: operations.rpcFetch(rpcUrls),
    ...(operations.sharedCache && { sharedCache: operations.sharedCache }),
  });
  operations.watchReader(reader);
  const historyRpcUrls = Object.fromEntries(
    chainNames.map((name) => [name, config.historyRpcUrls[name] ?? rpcUrls[name]]),
  ) as Record<ChainName, string[]>;
  const history = createHistoryReader({
    rpcUrls: historyRpcUrls,
    // Where HISTORY_RPC_URLS_<CHAIN> is not set, the history rides in the facts' request.
    factsRpcUrls: rpcUrls,
    windowBlocks: config.historyWindowBlocks,
    timeoutMs: config.rpcTimeoutMs,
    ttlMs: config.cacheTtlMs,
    ...(operations.sharedHistoryCache && { sharedCache: operations.sharedHistoryCache }),
    fetch: operations.rpcFetch(historyRpcUrls),
  });
  // Heads read now, so the first check of each chain is one round trip too (nothing waits).
  void history.prime();
  // A bad list line stops start-up here, naming the file and the line.
  const lists =
    config.addressLists.length > 0
      ? await namingField("ADDRESS_LISTS", () =>
          loadAddressLists({
            files: config.addressLists,
            maxBytes: config.addressListsMaxMiB * 2 ** 20,
            onReload: (outcome) => {
              if ("error" in outcome) {
                operations.logger.warn(
                  { file: outcome.file, error: loggedError(outcome.error) },
                  "address list not reloaded; the last good list stays in force",
                );
              } else {
                operations.logger.info(
                  { file: outcome.file, entries: outcome.entries },
                  "address list reloaded",
                );
              }
            },
          }),
        )
      : undefined;
  if (lists) {
    operations.metrics.readAddressListsFrom(() =>
      lists.status().map((list) => ({ ...list, file: basename(list.file) })),
    );
  }
  const plainEngine = operations.countVerdicts(
    createEngine({ reader, history, ...(lists && { lists }) }),
  );
  const engine = options.wrapEngine ? options.wrapEngine(plainEngine) : plainEngine;
  // A bad snapshot file stops start-up here, naming the file and the field.
  const snapshots = await namingField("SNAPSHOTS_DIR", () =>
    loadSnapshots({ dir: config.snapshotsDir }),
  );
  // A data dir that cannot be made (a path through a file, a volume not ours) is the operator's.
  await namingField("DATA_DIR", async () => mkdirSync(config.dataDir, { recursive: true }));
  const payTo = config.payTo;
  if (!payTo) throw new ConfigError("PAY_TO: is required when no local world is running");
  const facilitatorKey = config.facilitatorPrivateKey;
  // PRESEND_NETWORK=testnet pays on Base Sepolia, through the public facilitator by default.
  const paymentNetwork = config.network === "testnet" ? paymentNetworks.testnet : null;
  const facilitatorUrl = config.facilitatorUrl ?? paymentNetwork?.facilitatorUrl;
  const facilitator =
    facilitatorUrl || config.facilitatorAuth.type !== "none"
      ? ({
          type: "remote",
          url: facilitatorUrl,
          auth: config.facilitatorAuth,
          timeouts: config.facilitatorTimeouts,
        } as const)
      : facilitatorKey
        ? ({ type: "local", privateKey: facilitatorKey } as const)
        : null;
  if (!facilitator) {
    throw new ConfigError(
      "FACILITATOR_URL: is required on mainnet (or FACILITATOR_PROVIDER, or FACILITATOR_PRIVATE_KEY)",
    );
  }
  // What a facilitator that does not answer at start is blamed on: the in-process one reads Base.
  const facilitatorNamed =
    facilitator.type === "remote" ? facilitatorSetting(config, facilitatorUrl) : "RPC_URLS_BASE";
  const attestationKey = await namingField("ATTESTATION_KEY_FILE", () =>
    loadAttestationKey({
      dataDir: config.dataDir,
      ...(config.attestationKeyFile ? { file: config.attestationKeyFile } : {}),
    }),
  );
  const previousKeys = await namingField("ATTESTATION_PREVIOUS_KEYS_FILE", () =>
    loadPreviousAttestationKeys(
      config.attestationPreviousKeysFile,
      publicAttestationKey(attestationKey),
    ),
  );
  const records =
    options.records ??
    operations.records ??
    (await namingField("DATA_DIR", async () =>
      inDataDir(join(config.dataDir, "payments.sqlite"), openSqlitePaymentRecords),
    ));
  // Channels (on unless CHANNELS=off) live beside the payment records: SQLite in the data dir,
  // or shared by the replicas in PostgreSQL or Redis. The local world brings its receiver
  // authorizer; a single server keeps its own in the data dir (loadConfig refused a shared
  // store without one given).
  const channelsWanted = config.channels !== "off";
  // SQLite channels are DATA_DIR's (CHANNEL_STORE unset picks them); a shared store is CHANNEL_STORE's.
  // With CHANNELS=off, the channels payers still hold (opened while they were offered) are
  // opened too: their charged vouchers are claimed and the rest of their deposits refunded.
  const channelStore = await namingField(
    config.channelStore === "sqlite" ? "DATA_DIR" : "CHANNEL_STORE",
    () =>
      channelsWanted ? openChannelStore(config, operations) : openLeftChannels(config, operations),
  );
  const receiverAuthorizerKey =
    channelStore === undefined
      ? undefined
      : (config.receiverAuthorizerKey ??
        (await namingField("DATA_DIR", () => loadReceiverAuthorizerKey(config.dataDir))));
  const facilitatorJournal = fileSenderJournal(join(config.dataDir, facilitatorJournalFile));
  const payments = await createPayments(
    {
      // Every Base RPC URL, in order: a payment is not refused while one of them answers.
      baseRpcUrls: options.paymentRpcUrl
        ? [options.paymentRpcUrl]
        : paymentNetwork
          ? [paymentNetwork.rpcUrl]
          : rpcUrls.base,
      ...(paymentNetwork && { network: paymentNetwork.network }),
      facilitator,
      payTo,
      attestationKey,
      ...(receiverAuthorizerKey && { receiverAuthorizerKey }),
      ...(options.prices && { prices: options.prices }),
    },
    records,
    {
      ...(channelStore && { channelStore }),
      channelsRequired: config.channels === "on",
      channelsOffered: channelsWanted,
      ...(options.facilitatorProbeMs !== undefined && {
        facilitatorProbeMs: options.facilitatorProbeMs,
      }),
      facilitatorSetting: facilitatorNamed,
      ...(options.onTiming ? { onTiming: options.onTiming } : {}),
      ...(options.wrapReportSigner && { wrapReportSigner: options.wrapReportSigner }),
      ...(options.confirmationTimeoutMs !== undefined && {
        confirmationTimeoutMs: options.confirmationTimeoutMs,
      }),
      facilitatorJournal: {
        journal: facilitatorJournal,
        onError: reportErrors(operations.logger, "settlement journal"),
      },
      logger: operations.logger,
    },
  );
  // Receipts an older install kept in receipts.sqlite join the payment records (once; the file
  // is then renamed), before anything reads or reconciles them.
  await namingField("DATA_DIR", () =>
    importLegacyReceipts({
      file: join(config.dataDir, legacyReceiptsFile),
      records,
      asset: payments.config.asset,
    }),
  );
  // The facilitator must answer before we take payments: a wrong URL stops start-up here.
  await namingField(facilitatorNamed, () => payments.ready());
  await namingField(facilitatorNamed, () =>
    requireExactSettlement(payments.facilitator, payments.config.network),
  );
  const lock = options.lock ?? operations.lock ?? createMemoryInFlightLock();
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  // Sign-In-With-X: who paid for what recently, and the sign-in nonces spent (the fleet's with
  // Redis, else this process's).
  const signIn = operations.signIn ?? createSignInState();
  // Replicas that disagree on the attestation key or payTo refuse every client's payment: the
  // second one to start with another stops here.
  const redis = operations.redis;
  const identity = redis
    ? await namingField("ATTESTATION_KEY_FILE or PAY_TO", async () =>
        claimFleetIdentity(redis, {
          kid: attestationKey.kid,
          thumbprint: await calculateJwkThumbprint(payments.attestation.current().key),
          payTo,
        }),
      )
    : null;
  // Shown, never deciding readiness: free routes serve without the facilitator, and a paid
  // request it cannot verify is refused 503 facilitator_unavailable, nothing charged.
  const facilitatorWatch = payments.facilitatorWatch;
  operations.metrics.readFacilitatorFrom(() => {
    const { state } = facilitatorWatch.reachability();
    return Object.fromEntries(
      facilitatorStates.map((each) => [each, each === state ? 1 : 0] as const),
    );
  });
  const facilitatorReport = () => {
    facilitatorWatch.probe();
    return { facilitator: facilitatorWatch.reachability() };
  };
  const clockReadiness = clockCheck({ chainNow: () => payments.chain.now() });
  const recordsStoreFault = reportErrors(operations.logger, "payment records store");
  // A write, not a read: a read-only database (a standby after a failover) or a full disk still
  // answers reads, and every paid request would be refused 503. Shared for a second, so however
  // often /readyz is asked the store takes one probe write per second at most.
  const recordsTakeWrites = cachedProbe(() => records.writable(), recordsProbeMs);
  const app = createApp({
    publicUrl,
    ownershipProofs: config.ownershipProofs,
    beforeRoutes: [
      operations.beforeRoutes(async () => {
        await payments.ready();
        // /readyz is public behind the proxy: the store's own error (its host and port, its
        // user) goes to the log, the probe hears what is wrong in general.
        const recordsWritable = await recordsTakeWrites().then(
          () => true,
          (error: unknown) => {
            recordsStoreFault(error);
            return false;
          },
        );
        if (!recordsWritable) {
          return {
            ready: false,
            reason: "the payment records store does not answer or does not take writes",
          };
        }
        const fleet = identity?.readiness() ?? { ready: true };
        return fleet.ready ? clockReadiness() : fleet;
      }, facilitatorReport),
      ...(options.beforeRoutes ?? []),
    ],
    // An unexpected error on a paid request (or /receipts) answers what its record says was charged.
    failedRequestAnswer: failedRequestAnswer({
      records: payments.records,
      publicUrl,
      settlementReceipt: payments.settlementReceipt,
    }),
    probe: cachedProbe(
      () => probeChains({ rpcUrls, timeoutMs: config.rpcTimeoutMs }),
      healthCacheMs,
    ),
    // Every route beyond the free /validate and /health, in one list.
    routeGroups: [
      (app) => registerSignInSecurityScheme(app),
      (app) =>
        registerPaidRoutes(app, {
          engine,
          payments,
          lock,
          publicUrl,
          signIn,
        }),
      (app) =>
        registerReceiptRoute(app, {
          records: payments.records,
          signReport: payments.signReport,
          verifyMessage: payments.verifyPayerMessage,
          signedIn: signedInPayer({
            origin: publicUrl,
            state: signIn,
            verifyMessage: payments.verifyPayerMessage,
          }),
        }),
      (app) => registerDiscoveryRoute(app, { payments, publicUrl, previousKeys }),
      (app) => registerDataRoutes(app, snapshots),
    ],
  });
  // Payments a previous run left open are decided from the chain now, then every 30 s.
  const reconcile = async () => {
    const result = await payments.records.reconcile();
    // Channel payments are settled by the claims that cover them, read from the escrow.
    await (payments.channels ?? payments.closingChannels)?.reconcile().catch(() => {});
    return result;
  };
  let reconciling: Promise<unknown> = reconcile().catch(() => {});
  const timer = setInterval(() => {
    reconciling = reconcile().catch(() => {});
  }, reconcileIntervalMs);
  timer.unref();
  payments.channels?.start(config.channelSchedule, lock);
  payments.closingChannels?.startClosing(config.channelSchedule, lock);
  return {
    app,
    engine,
    reader,
    payments,
    records,
    snapshots,
    rpcUrls,
    reconcile,
    operations,
    async close() {
      clearInterval(timer);
      lists?.close();
      identity?.stop();
      // Outstanding vouchers are claimed and settled before the store closes.
      await (payments.channels ?? payments.closingChannels)
        ?.stop()
        .catch(reportErrors(operations.logger, "channel flush failed", "error"));
      // After the channels' last transactions: what is still unmined stays journaled for the next start.
      await facilitatorJournal.close();
      await reconciling;
      await channelStore?.close();
      await records.close();
      await operations.close();
    },
  };
}

/** The channel store CHANNEL_STORE names (loadConfig checked the URL it needs is set). */
async function openChannelStore(config: Config, operations: Operations): Promise<ChannelStore> {
  if (config.channelStore === "postgres") {
    return openPostgresChannelStore(config.databaseUrl as string);
  }
  if (config.channelStore === "redis") {
    const redis = operations.redis;
    if (redis === undefined) throw new ConfigError("redis needs REDIS_URL");
    // A Redis without an append-only file forgets every voucher when it restarts.
    if (!(await redisKeepsWrites(redis))) {
      throw new ConfigError(
        "redis keeps no append-only file (appendonly no), so a restart of it would lose the vouchers of every channel: turn appendonly on, or use postgres",
      );
    }
    return openRedisChannelStore(redis);
  }
  return inDataDir(join(config.dataDir, "channels.sqlite"), openSqliteChannelStore);
}

/**
 * With CHANNELS=off, the store of the channels payers opened while they were offered, when it
 * still holds one or a voucher not yet claimed; otherwise none is opened (nor made).
 */
async function openLeftChannels(
  config: Config,
  operations: Operations,
): Promise<ChannelStore | undefined> {
  let store: ChannelStore;
  if (config.channelStore === "sqlite") {
    const file = join(config.dataDir, "channels.sqlite");
    if (!existsSync(file)) return undefined;
    store = inDataDir(file, openSqliteChannelStore);
  } else if (config.channelStore === "postgres" && config.databaseUrl) {
    store = await openPostgresChannelStore(config.databaseUrl);
  } else if (config.channelStore === "redis" && operations.redis) {
    // Only emptied from here on: no voucher is taken that a restart of Redis could lose.
    store = openRedisChannelStore(operations.redis);
  } else {
    return undefined;
  }
  if ((await store.list()).length > 0 || (await store.unclaimedCharges()).length > 0) return store;
  await store.close();
  return undefined;
}

/**
 * Opens a database file in DATA_DIR; SQLite's own error ("unable to open database file") names
 * neither the file nor what to do.
 */
function inDataDir<T>(file: string, open: (file: string) => T): T {
  try {
    return open(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      `cannot open ${file} (${reason}): the directory must be writable by this process (its user and mode)`,
      { cause: error },
    );
  }
}

/**
 * What chose the remote facilitator, for a start-up error: the setting the operator made, or the
 * testnet default with what to set instead. Origins only: a URL's path or credentials and the
 * providers' keys stay out of the message.
 */
function facilitatorSetting(config: Config, url: string | undefined): string {
  const origin = url ? new URL(url).origin : undefined;
  if (config.facilitatorUrl) return `FACILITATOR_URL (${origin})`;
  const auth = config.facilitatorAuth.type;
  if (auth === "cdp" || auth === "payai") return `FACILITATOR_PROVIDER=${auth}`;
  return `FACILITATOR_URL is unset, so the testnet default facilitator ${origin} was used (set FACILITATOR_URL, e.g. your own presend facilitator, or FACILITATOR_PROVIDER)`;
}

/** Runs one start-up step; its failure becomes a ConfigError naming the setting behind it. */
async function namingField<T>(field: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${field}: ${reason}`, { cause: error });
  }
}
