import { chains } from "@presend/shared/chains/chains";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Logger } from "pino";
import { z } from "zod";
import { ConfigError } from "../config/loadConfig";
import { clockCheck } from "../health/clockCheck";
import { refuseBusyPorts } from "../http/refuseBusyPorts";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { limits } from "../limits";
import { createLogger } from "../observability/createLogger";
import { createMetrics } from "../observability/createMetrics";
import { reportErrors } from "../observability/reportErrors";
import { createLocalFacilitator } from "../payments/facilitator/createLocalFacilitator";
import { createPaymentChain } from "../payments/facilitator/createPaymentChain";
import { fileSenderJournal } from "../payments/facilitator/fileSenderJournal";
import { createFacilitatorApp } from "./createFacilitatorApp";

/** The journal's file when FACILITATOR_JOURNAL_FILE is not set (relative to the working directory). */
export const defaultJournalFile = ".data/facilitator-journal.json";

const FacilitatorConfigSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8403),
  /** The settlement key: pays the gas of every transferWithAuthorization. */
  FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(bytes32Pattern, "must be a 0x-prefixed 32-byte hex private key"),
  /**
   * Base JSON-RPC endpoints, comma-separated; the facilitator reads and settles through them in
   * order (a call the first does not answer goes to the next).
   */
  RPC_URLS_BASE: z
    .string()
    .transform((value) => value.split(",").map((url) => url.trim()))
    .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1)),
  /** The secret every replica sends (Authorization: Bearer); requests without it are refused. */
  FACILITATOR_AUTH_TOKEN: z
    .string()
    .min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)"),
  /**
   * Where unmined settlements are kept across a restart: the next start sends them again and
   * replaces the stuck one at a higher fee. Always kept (by default beside the API's default
   * DATA_DIR): without it a restart would leave a settlement the payer was answered for to the
   * pool, where it can sit unmined.
   */
  FACILITATOR_JOURNAL_FILE: z.string().min(1).default(defaultJournalFile),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DRAIN_TIMEOUT_MS: z.coerce.number().int().positive().default(limits.drainTimeoutMs),
});

/** Every environment variable `presend facilitator` reads (the README names each). */
export const facilitatorServiceVariables: readonly string[] = Object.keys(
  FacilitatorConfigSchema.shape,
);

export type FacilitatorService = {
  url: string;
  address: `0x${string}`;
  server: DrainingServer;
  logger: Logger;
  /** Drains settlements in flight, then stops listening. */
  stop: () => Promise<void>;
};

/** /readyz's reason while no RPC_URLS_BASE endpoint answers (the URLs, which carry keys, unsaid). */
export const baseUnreadable =
  "Base does not answer on any RPC_URLS_BASE endpoint: nothing can be verified or settled";

/** Network of every payment presend takes: USDC on Base. */
const baseNetwork = chains.base.caip2;

/**
 * Starts `presend facilitator`: the official x402 facilitator with one settlement key, served over
 * HTTP for every API replica (FACILITATOR_URL). Settings come from the environment.
 * @example const service = await startFacilitatorService(process.env);
 */
export async function startFacilitatorService(
  env: Record<string, string | undefined>,
): Promise<FacilitatorService> {
  const parsed = FacilitatorConfigSchema.safeParse(
    Object.fromEntries(
      Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
    ),
  );
  if (!parsed.success) {
    // An unset setting says so, rather than zod's "expected string, received undefined".
    const lines = parsed.error.issues.map(
      (issue) =>
        `${issue.path.join(".")}: ${issue.code === "invalid_type" && issue.input === undefined ? "is required" : issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const config = parsed.data;
  // A taken port is named with the setting that chose it, before the journal or the chain is touched.
  await refuseBusyPorts([
    { port: config.PORT, host: config.HOST, setting: "PORT", what: "the facilitator service" },
  ]);
  const logger = createLogger({ level: config.LOG_LEVEL, name: "presend-facilitator" });
  const metrics = createMetrics();
  const journal = fileSenderJournal(config.FACILITATOR_JOURNAL_FILE);
  const facilitator = createLocalFacilitator({
    network: baseNetwork,
    rpcUrls: config.RPC_URLS_BASE,
    privateKey: config.FACILITATOR_PRIVATE_KEY as `0x${string}`,
    journal,
    onError: reportErrors(logger, "settlement journal"),
    // Replicas offering batch-settlement channels send deposits, claims and refunds here too.
    batchSettlement: true,
  });
  // Settlement refuses authorizations by this machine's clock: a clock that strays is unready.
  // So is a Base it cannot read: every verification and settlement would fail, and the replicas'
  // /supported probe (which needs no chain) would still find the service up.
  const chain = createPaymentChain({
    rpcUrls: config.RPC_URLS_BASE,
    chainId: chains.base.id,
    asset: chains.base.usdc.address,
  });
  const clockReadiness = clockCheck({
    chainNow: () => chain.now(),
    whenUnreadable: { ready: false, reason: baseUnreadable },
  });
  let server: DrainingServer | undefined;
  const app = createFacilitatorApp({
    facilitator,
    logger,
    metrics,
    authToken: config.FACILITATOR_AUTH_TOKEN,
    readiness: async () =>
      server?.draining() ? { ready: false, reason: "shutting down" } : clockReadiness(),
  });
  server = await serveWithDrain(app, { port: config.PORT, host: config.HOST });
  logger.info({ url: server.url, address: facilitator.address }, "facilitator listening");
  const running = server;
  return {
    url: running.url,
    address: facilitator.address,
    server: running,
    logger,
    stop: async () => {
      const result = await running.drain(config.DRAIN_TIMEOUT_MS);
      // Drained: what is still unmined stays journaled for the next start.
      await journal.close();
      logger.info(result, "facilitator stopped");
    },
  };
}
