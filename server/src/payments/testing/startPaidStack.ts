import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorld, usdcBalanceOnBase, type World } from "@presend/devnet";
import type { ChainName } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import { type ComposedServer, composeServer } from "../../composeServer";
import { loadConfig } from "../../config/loadConfig";
import type { Engine } from "../../engine/createEngine";
import type { App } from "../../http/appEnv";
import { worldConfig } from "../../localDemo/worldConfig";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import type { PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import type { CreatePaymentsOptions, Payments } from "../createPayments";
import type { FacilitatorAuth } from "../facilitator/createFacilitatorClient";
import type { PaidPath } from "../paidRoutes";

export type PaidStackOptions = CreatePaymentsOptions & {
  /** Reuse a running world (tests share one); otherwise one is started and stopped with the stack. */
  world?: World;
  publicUrl?: string;
  /** RPC URLs per chain for the engine; defaults to the world's (tests point one at a dead port). */
  rpcUrls?: Partial<Record<ChainName, string[]>>;
  dataDir?: string;
  /** Wraps the engine the routes use (the bench times it). */
  wrapEngine?: (engine: Engine) => Engine;
  /** The Base RPC payments go through (tests put a fault-injecting proxy here). */
  paymentRpcUrl?: string;
  /** Another payment record store or lock (the bench measures without the write-ahead one). */
  records?: PaymentRecordStore;
  lock?: InFlightLock;
  /** A facilitator over HTTP instead of the in-process one (a hosted provider's stand-in). */
  facilitator?: { url: string; auth: FacilitatorAuth };
  /** Offers batch-settlement channels beside exact, this key authorizing claims and refunds. */
  receiverAuthorizerKey?: `0x${string}`;
  /**
   * Offers channels as `npm start` does, with the local world's receiver authorizer. Without it
   * (or receiverAuthorizerKey) the stack offers `exact` only, so each test pays with the
   * schemes it names.
   */
  channels?: boolean;
  /** Further middleware before every route (tests throw from here, after a paid answer). */
  beforeRoutes?: Array<(app: App) => void>;
  /** The paid routes' prices in USDC base units, as a release that changes routePrices would set them. */
  prices?: Record<PaidPath, string>;
  /** Further settings as the environment gives them (e.g. ATTESTATION_PREVIOUS_KEYS_FILE, or FACILITATOR_URL for a remote facilitator). */
  env?: Record<string, string>;
};

export type PaidStack = {
  world: World;
  app: App;
  engine: Engine;
  payments: Payments;
  records: PaymentRecordStore;
  /** Decides open payment records from the chain now. */
  reconcile: ComposedServer["reconcile"];
  dataDir: string;
  publicUrl: string;
  /** USDC balance on the local Base chain, in base units. */
  usdcBalance(address: Address): Promise<bigint>;
  stop(): Promise<void>;
};

/**
 * The whole paid API on the local world: real anvil chains, the real engine, the in-process
 * facilitator settling on local Base, payment records in a temporary data dir. For tests and the bench.
 * @example const stack = await startPaidStack(); await stack.app.request("/check", { method: "POST" });
 */
export async function startPaidStack(options: PaidStackOptions = {}): Promise<PaidStack> {
  const ownWorld = options.world === undefined;
  const world = options.world ?? (await startWorld());
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "presend-paid-"));
  const publicUrl = options.publicUrl ?? "http://presend.test";
  // The same composition `npm start` runs, with no cache so every paid check reads the chain.
  const config = loadConfig({
    DATA_DIR: dataDir,
    CACHE_TTL_MS: "0",
    RPC_TIMEOUT_MS: "2000",
    ...(options.receiverAuthorizerKey && {
      RECEIVER_AUTHORIZER_KEY: options.receiverAuthorizerKey,
    }),
    ...(!options.channels && !options.receiverAuthorizerKey && { CHANNELS: "off" }),
    ...options.env,
  });
  const withRpcUrls = {
    ...config,
    rpcUrls: options.rpcUrls ?? {},
    ...(options.facilitator && {
      facilitatorUrl: options.facilitator.url,
      facilitatorAuth: options.facilitator.auth,
    }),
  };
  const composed = await composeServer(worldConfig(withRpcUrls, world), {
    publicUrl,
    ...(options.wrapEngine ? { wrapEngine: options.wrapEngine } : {}),
    ...(options.onTiming ? { onTiming: options.onTiming } : {}),
    ...(options.wrapReportSigner && { wrapReportSigner: options.wrapReportSigner }),
    ...(options.paymentRpcUrl ? { paymentRpcUrl: options.paymentRpcUrl } : {}),
    ...(options.records ? { records: options.records } : {}),
    ...(options.lock ? { lock: options.lock } : {}),
    ...(options.beforeRoutes && { beforeRoutes: options.beforeRoutes }),
    ...(options.prices && { prices: options.prices }),
    ...(options.confirmationTimeoutMs !== undefined && {
      confirmationTimeoutMs: options.confirmationTimeoutMs,
    }),
    ...(options.facilitatorProbeMs !== undefined && {
      facilitatorProbeMs: options.facilitatorProbeMs,
    }),
  });
  const { app, engine, payments, records } = composed;
  return {
    world,
    app,
    engine,
    payments,
    records,
    reconcile: composed.reconcile,
    dataDir,
    publicUrl,
    usdcBalance: usdcBalanceOnBase(world.chains.base),
    async stop() {
      await composed.close();
      if (ownWorld) await world.stop();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
