import { readFileSync } from "node:fs";
import { BlockList, isIP } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";
import { limits } from "../limits";
import {
  type ChannelSchedule,
  channelSchedule,
  maxClaimIntervalSecs,
} from "../payments/channels/channelSchedule";
import type { FacilitatorAuth } from "../payments/facilitator/createFacilitatorClient";
import { facilitatorAuthOf, facilitatorEnv, missingFacilitatorKeys } from "./facilitatorEnv";
import { unknownSettings } from "./unknownSettings";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const urlList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((url) => url.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1));

const port = z.coerce.number().int().min(0).max(65535);

// Keys are the environment variable names, so an error names exactly what the operator set.
const rpcKeys = Object.fromEntries(
  chainNames.map((name) => [`RPC_URLS_${name.toUpperCase()}`, urlList.optional()]),
) as Record<`RPC_URLS_${Uppercase<ChainName>}`, z.ZodOptional<typeof urlList>>;

// Endpoints that serve the history queries (topic-filtered eth_getLogs over months of blocks,
// ots_ for native sends): archive nodes, Erigon/Reth, providers without log range caps.
const historyRpcKeys = Object.fromEntries(
  chainNames.map((name) => [`HISTORY_RPC_URLS_${name.toUpperCase()}`, urlList.optional()]),
) as Record<`HISTORY_RPC_URLS_${Uppercase<ChainName>}`, z.ZodOptional<typeof urlList>>;

const windowBlocks = z.coerce.number().int().positive();
const historyWindowKeys = Object.fromEntries(
  chainNames.map((name) => [
    `HISTORY_WINDOW_BLOCKS_${name.toUpperCase()}`,
    windowBlocks.optional(),
  ]),
) as Record<`HISTORY_WINDOW_BLOCKS_${Uppercase<ChainName>}`, z.ZodOptional<typeof windowBlocks>>;

// Whole seconds, at most a week: the channel manager keeps each interval as a timer, and a longer
// one would overflow setInterval (about 24.8 days) and fire at once.
const channelSecs = z.coerce
  .number()
  .int()
  .positive()
  .max(7 * 24 * 3_600);

const ConfigSchema = z
  .object({
    /**
     * local: the embedded five-chain world; mainnet: public chains, a real facilitator;
     * testnet: public chains checked, payments on Base Sepolia (an operator's dry run).
     */
    PRESEND_NETWORK: z.enum(["local", "mainnet", "testnet"]).default("local"),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: port.default(8402),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Accepts a plain-http or loopback PUBLIC_URL on mainnet: for a mainnet-mode rig on one
     * machine (the scale fleet), never for a server the public reaches.
     */
    ALLOW_LOCAL_PUBLIC_URL: z.enum(["0", "1", "false", "true"]).default("0"),
    DATA_DIR: z.string().min(1).default(resolve(repoRoot, ".data")),
    SNAPSHOTS_DIR: z.string().min(1).default(resolve(repoRoot, "snapshots")),
    /** First port of the five local chains (base, ethereum, arbitrum, optimism, polygon); 0 = any free ports. */
    DEVNET_FIRST_PORT: port.default(8545),
    RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(limits.rpcTimeoutMs),
    CACHE_TTL_MS: z.coerce.number().int().min(0).default(limits.factsCacheTtlMs),
    FACILITATOR_URL: z
      .url({ protocol: /^https?$/ })
      // fetch refuses a URL with credentials, and its error would print them.
      .refine((url) => {
        const { username, password } = new URL(url);
        return !username && !password;
      }, "must not carry credentials (user:password@); presend facilitator's secret goes in FACILITATOR_AUTH_TOKEN")
      .optional(),
    /** The secret `presend facilitator` requires, sent to FACILITATOR_URL as a Bearer token. */
    FACILITATOR_AUTH_TOKEN: z.string().min(1).optional(),
    /** How long a remote facilitator may take to answer a verification; past it: 503, nothing charged. */
    FACILITATOR_VERIFY_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(limits.facilitatorVerifyMs),
    /** How long a remote facilitator may take to answer a settlement; past it the chain decides. */
    FACILITATOR_SETTLE_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(limits.facilitatorSettleMs),
    PAY_TO: z
      .string()
      // Exactly its EIP-55 form: an address whose form has letters of one case only (or none)
      // is checksummed too, though a checker calls it "no checksum".
      .refine(
        (value) => checksumStatus(value).normalized === value.trim(),
        "must be an EIP-55 checksummed address",
      )
      .optional(),
    ATTESTATION_KEY_FILE: z.string().min(1).optional(),
    /** The public keys the attestation was signed with before (JSON: [{key, validUntil}]). */
    ATTESTATION_PREVIOUS_KEYS_FILE: z.string().min(1).optional(),
    /** Runs the facilitator in process with this key when FACILITATOR_URL is not set. */
    FACILITATOR_PRIVATE_KEY: z
      .string()
      .regex(bytes32Pattern, "must be a 0x-prefixed 32-byte hex private key")
      .optional(),
    /**
     * x402 batch-settlement channels beside exact: on by default wherever the facilitator settles
     * them (off: exact only; on: a facilitator that cannot is a start-up error).
     */
    CHANNELS: z.enum(["on", "off"]).optional(),
    /**
     * Where the server's channels live: SQLite in DATA_DIR, else PostgreSQL with DATABASE_URL
     * (the default when it is set), or Redis (REDIS_URL, with an append-only file).
     */
    CHANNEL_STORE: z.enum(["sqlite", "postgres", "redis"]).optional(),
    /**
     * The server's receiver authorizer for channels (it signs claims and refunds): the local
     * world's on the local network, else kept in DATA_DIR; replicas sharing a channel store
     * must all be given the same one.
     */
    RECEIVER_AUTHORIZER_KEY: z
      .string()
      .regex(bytes32Pattern, "must be a 0x-prefixed 32-byte hex private key")
      .optional(),
    /**
     * How often the channels' vouchers are claimed, claimed money swept to PAY_TO, and idle
     * channels refunded, and how long a channel stays unused before its rest is refunded
     * (seconds; the defaults suit a public server, tests run them in seconds).
     */
    CHANNEL_CLAIM_INTERVAL_SECS: channelSecs
      .max(maxClaimIntervalSecs)
      .default(channelSchedule.claimIntervalSecs),
    CHANNEL_SETTLE_INTERVAL_SECS: channelSecs.default(channelSchedule.settleIntervalSecs),
    CHANNEL_REFUND_INTERVAL_SECS: channelSecs.default(channelSchedule.refundIntervalSecs),
    CHANNEL_IDLE_REFUND_SECS: z.coerce
      .number()
      .int()
      .positive()
      .default(channelSchedule.idleRefundSecs),
    /** PostgreSQL for payment records (shared by replicas); SQLite in DATA_DIR without it. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    /** Redis for what replicas share (facts cache, in-flight locks, rate limits); memory without it. */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
    /** Behind a reverse proxy: rate limits key on the last X-Forwarded-For entry. */
    TRUST_PROXY: z.enum(["0", "1", "false", "true"]).default("0"),
    /** Per-client rate limits: on by default on mainnet, off for the local demo (tests, bench). */
    RATE_LIMITS: z.enum(["on", "off"]).optional(),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
    /** Requests per client per window on the free routes. */
    RATE_LIMIT_FREE: z.coerce.number().int().positive().default(120),
    /** Unpaid requests (402 challenges) per client per window on the paid routes. */
    RATE_LIMIT_CHALLENGES: z.coerce.number().int().positive().default(60),
    /** How long SIGTERM waits for paid requests in flight before exiting. */
    DRAIN_TIMEOUT_MS: z.coerce.number().int().positive().default(limits.drainTimeoutMs),
    /** Operator address lists (JSON Lines files), comma-separated; reloaded when they change. */
    ADDRESS_LISTS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((file) => file.trim())
          .filter(Boolean),
      )
      .optional(),
    /** The largest address list file read, in MiB; a larger one is refused unread. */
    ADDRESS_LISTS_MAX_MB: z.coerce.number().int().positive().default(limits.addressListMiB),
    ...facilitatorEnv,
    /** Ownership proofs published in the OpenAPI for x402 crawlers (comma-separated). */
    OWNERSHIP_PROOFS: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((proof) => proof.trim())
          .filter(Boolean),
      )
      .optional(),
    ...rpcKeys,
    ...historyRpcKeys,
    ...historyWindowKeys,
  })
  .superRefine((config, ctx) => {
    for (const key of missingFacilitatorKeys(config)) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `is required with FACILITATOR_PROVIDER=${config.FACILITATOR_PROVIDER}`,
      });
    }
    const channelStore =
      config.CHANNEL_STORE ?? (config.DATABASE_URL !== undefined ? "postgres" : "sqlite");
    const needs = { postgres: "DATABASE_URL", redis: "REDIS_URL" } as const;
    if (config.CHANNELS !== "off" && channelStore !== "sqlite" && !config[needs[channelStore]]) {
      ctx.addIssue({
        code: "custom",
        path: ["CHANNEL_STORE"],
        message: `${channelStore} needs ${needs[channelStore]}`,
      });
    }
    // Channels of a shared store were opened with one receiver authorizer: every replica must
    // sign with it, so none may make up its own.
    if (
      config.CHANNELS !== "off" &&
      channelStore !== "sqlite" &&
      config.PRESEND_NETWORK !== "local" &&
      !config.RECEIVER_AUTHORIZER_KEY
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["RECEIVER_AUTHORIZER_KEY"],
        message: `is required with CHANNEL_STORE=${channelStore}: every replica sharing the channels signs with the same key (or CHANNELS=off for exact only)`,
      });
    }
    if (config.PRESEND_NETWORK === "local") return;
    if (config.PRESEND_NETWORK === "mainnet") {
      const problem = publicUrlProblem(config.PUBLIC_URL, config.ALLOW_LOCAL_PUBLIC_URL);
      if (problem) ctx.addIssue({ code: "custom", path: ["PUBLIC_URL"], message: problem });
    }
    // On public chains nothing may silently fall back to the demo world. The testnet has a
    // public facilitator; mainnet needs a URL or a hosted provider.
    const facilitatorSet =
      config.PRESEND_NETWORK === "testnet" || config.FACILITATOR_URL || config.FACILITATOR_PROVIDER;
    for (const key of ["FACILITATOR_URL", "PAY_TO", "ATTESTATION_KEY_FILE"] as const) {
      if (!config[key] && (key !== "FACILITATOR_URL" || !facilitatorSet)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `is required when PRESEND_NETWORK=${config.PRESEND_NETWORK}${key === "FACILITATOR_URL" ? " (or FACILITATOR_PROVIDER)" : ""}`,
        });
      }
    }
  });

// Hosts that name the machine itself or no machine at all: no client or crawler elsewhere reaches them.
const unreachableHosts = new BlockList();
unreachableHosts.addSubnet("0.0.0.0", 8, "ipv4");
unreachableHosts.addSubnet("127.0.0.0", 8, "ipv4");
unreachableHosts.addAddress("::", "ipv6");
unreachableHosts.addAddress("::1", "ipv6");
unreachableHosts.addSubnet("::ffff:0.0.0.0", 104, "ipv6");
unreachableHosts.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

/**
 * Why a mainnet PUBLIC_URL cannot be published, or null: the 402 resource URL, the discovery
 * documents and the OpenAPI servers carry it to payers and to the x402 crawlers that list the
 * server, so it must be the https origin clients reach (a fallback from HOST, 0.0.0.0 or
 * localhost, reaches no one).
 */
function publicUrlProblem(publicUrl: string | undefined, allowLocal: string): string | null {
  const example = "e.g. PUBLIC_URL=https://presend.example.com";
  if (publicUrl === undefined) {
    return `is required when PRESEND_NETWORK=mainnet: the https origin payers and x402 crawlers reach (${example}); it is published in every 402 and discovery document`;
  }
  if (allowLocal === "1" || allowLocal === "true") return null;
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const local =
    host === "localhost" ||
    host.endsWith(".localhost") ||
    (isIP(host) !== 0 && unreachableHosts.check(host, isIP(host) === 6 ? "ipv6" : "ipv4"));
  if (local) {
    return `${url.origin} names this machine, which no payer or crawler reaches: set the public https origin (${example})`;
  }
  if (url.protocol !== "https:") {
    return `${url.origin} is not https: payers and crawlers take it from every 402 and discovery document (${example})`;
  }
  return null;
}

export type RawConfig = z.infer<typeof ConfigSchema>;

/** Every environment variable the server reads (the README's Configuration section names each). */
export const configVariables: readonly string[] = [
  "PRESEND_CONFIG",
  ...Object.keys(ConfigSchema.shape),
];

export type Config = {
  network: "local" | "mainnet" | "testnet";
  host: string;
  port: number;
  /** PUBLIC_URL when set; otherwise the server derives it from the host and the bound port. */
  publicUrl?: string;
  dataDir: string;
  snapshotsDir: string;
  devnetFirstPort: number;
  rpcTimeoutMs: number;
  cacheTtlMs: number;
  /** Per-chain RPC URL overrides (mainnet); missing chains use the reader's public defaults. */
  rpcUrls: Partial<Record<ChainName, string[]>>;
  /** Per-chain history endpoints; missing chains read history through their RPC URLs. */
  historyRpcUrls: Partial<Record<ChainName, string[]>>;
  /** Per-chain history window in blocks; missing chains use about 180 days. */
  historyWindowBlocks: Partial<Record<ChainName, number>>;
  /** The operator's address list files. */
  addressLists: string[];
  addressListsMaxMiB: number;
  facilitatorUrl?: string;
  /** How presend authenticates to a remote facilitator (a hosted provider's API key, or none). */
  facilitatorAuth: FacilitatorAuth;
  /** How long a remote facilitator's verification and settlement may take to answer. */
  facilitatorTimeouts: { verifyMs: number; settleMs: number };
  /** Proofs that the operator owns this origin (for x402 crawlers), e.g. payTo's signature of it. */
  ownershipProofs: string[];
  facilitatorAuthToken?: string;
  payTo?: `0x${string}`;
  attestationKeyFile?: string;
  attestationPreviousKeysFile?: string;
  facilitatorPrivateKey?: `0x${string}`;
  /** null: unset, channels are offered when the facilitator settles them. */
  channels: "on" | "off" | null;
  channelStore: "sqlite" | "postgres" | "redis";
  /** When channels are claimed, settled and refunded (CHANNEL_*_SECS). */
  channelSchedule: ChannelSchedule;
  receiverAuthorizerKey?: `0x${string}`;
  databaseUrl?: string;
  redisUrl?: string;
  /** Request logs are info: on by default on mainnet, off (warn) for the local demo. */
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  trustProxy: boolean;
  /** null: no rate limits (RATE_LIMITS=off). */
  rateLimit: { windowMs: number; free: number; challenges: number } | null;
  drainTimeoutMs: number;
};

/** A setting is missing or wrong; the message names it. */
export class ConfigError extends ConfigurationError<"invalid_setting"> {
  override name = "ConfigError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: "invalid_setting" });
  }
}

/**
 * Parses the configuration once from the environment (and an optional JSON file named by PRESEND_CONFIG,
 * whose keys are the same names; the environment wins). Throws ConfigError naming the bad field.
 * @example const config = loadConfig(process.env);
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const fileValues = env.PRESEND_CONFIG ? readConfigFile(env.PRESEND_CONFIG) : {};
  const definedEnv = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ""),
  );
  const parsed = ConfigSchema.safeParse({ ...stringify(fileValues), ...definedEnv });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const raw = parsed.data;
  const rpcUrls: Partial<Record<ChainName, string[]>> = {};
  for (const name of chainNames) {
    const urls = raw[`RPC_URLS_${name.toUpperCase() as Uppercase<ChainName>}`];
    if (urls) rpcUrls[name] = urls;
  }
  const historyRpcUrls: Partial<Record<ChainName, string[]>> = {};
  const historyWindowBlocks: Partial<Record<ChainName, number>> = {};
  for (const name of chainNames) {
    const upper = name.toUpperCase() as Uppercase<ChainName>;
    const urls = raw[`HISTORY_RPC_URLS_${upper}`];
    if (urls) historyRpcUrls[name] = urls;
    const blocks = raw[`HISTORY_WINDOW_BLOCKS_${upper}`];
    if (blocks !== undefined) historyWindowBlocks[name] = blocks;
  }
  return {
    network: raw.PRESEND_NETWORK,
    host: raw.HOST,
    port: raw.PORT,
    publicUrl: raw.PUBLIC_URL?.replace(/\/$/, ""),
    dataDir: raw.DATA_DIR,
    snapshotsDir: raw.SNAPSHOTS_DIR,
    devnetFirstPort: raw.DEVNET_FIRST_PORT,
    rpcTimeoutMs: raw.RPC_TIMEOUT_MS,
    cacheTtlMs: raw.CACHE_TTL_MS,
    rpcUrls,
    historyRpcUrls,
    historyWindowBlocks,
    addressLists: raw.ADDRESS_LISTS ?? [],
    addressListsMaxMiB: raw.ADDRESS_LISTS_MAX_MB,
    facilitatorUrl: raw.FACILITATOR_URL,
    facilitatorAuth: facilitatorAuthOf(raw),
    facilitatorTimeouts: {
      verifyMs: raw.FACILITATOR_VERIFY_TIMEOUT_MS,
      settleMs: raw.FACILITATOR_SETTLE_TIMEOUT_MS,
    },
    ownershipProofs: raw.OWNERSHIP_PROOFS ?? [],
    facilitatorAuthToken: raw.FACILITATOR_AUTH_TOKEN,
    payTo: raw.PAY_TO as `0x${string}` | undefined,
    attestationKeyFile: raw.ATTESTATION_KEY_FILE,
    attestationPreviousKeysFile: raw.ATTESTATION_PREVIOUS_KEYS_FILE,
    facilitatorPrivateKey: raw.FACILITATOR_PRIVATE_KEY as `0x${string}` | undefined,
    channels: raw.CHANNELS ?? null,
    channelStore: raw.CHANNEL_STORE ?? (raw.DATABASE_URL !== undefined ? "postgres" : "sqlite"),
    channelSchedule: {
      claimIntervalSecs: raw.CHANNEL_CLAIM_INTERVAL_SECS,
      settleIntervalSecs: raw.CHANNEL_SETTLE_INTERVAL_SECS,
      refundIntervalSecs: raw.CHANNEL_REFUND_INTERVAL_SECS,
      idleRefundSecs: raw.CHANNEL_IDLE_REFUND_SECS,
    },
    receiverAuthorizerKey: raw.RECEIVER_AUTHORIZER_KEY as `0x${string}` | undefined,
    databaseUrl: raw.DATABASE_URL,
    redisUrl: raw.REDIS_URL,
    logLevel: raw.LOG_LEVEL ?? (raw.PRESEND_NETWORK === "mainnet" ? "info" : "warn"),
    trustProxy: raw.TRUST_PROXY === "1" || raw.TRUST_PROXY === "true",
    rateLimit:
      (raw.RATE_LIMITS ?? (raw.PRESEND_NETWORK === "mainnet" ? "on" : "off")) === "on"
        ? {
            windowMs: raw.RATE_LIMIT_WINDOW_MS,
            free: raw.RATE_LIMIT_FREE,
            challenges: raw.RATE_LIMIT_CHALLENGES,
          }
        : null,
    drainTimeoutMs: raw.DRAIN_TIMEOUT_MS,
  };
}

/**
 * The settings of the PRESEND_CONFIG file. JSON.parse's own message quotes the text around the
 * fault, which in this file is often a key or a secret: only where it is, is said.
 */
function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `PRESEND_CONFIG: cannot read ${file} (${error instanceof Error ? error.message : error})`,
    );
  }
  const notAnObject = `PRESEND_CONFIG: ${file} is not a JSON object of settings (e.g. {"PORT": 8402}; a KEY=value .env file is not read here)`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const position = /at position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
    if (position === undefined) throw new ConfigError(`${notAnObject}: not valid JSON`);
    const before = text.slice(0, Number(position)).split("\n");
    throw new ConfigError(
      `${notAnObject}: not valid JSON at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`,
    );
  }
  const settings = z.record(z.string(), z.unknown()).safeParse(json);
  if (!settings.success) throw new ConfigError(notAnObject);
  // Every key of this file is meant for presend: one it does not read would leave its setting at
  // the default without a word (CHANELS: "off" and channels stay on).
  const fileSettings = configVariables.filter((name) => name !== "PRESEND_CONFIG");
  const unknown = unknownSettings(Object.keys(settings.data), fileSettings, "all");
  if (unknown.length > 0) {
    throw new ConfigError(
      `PRESEND_CONFIG: ${file} names settings presend does not read: ${unknown.map((setting) => setting.described).join(", ")}. Correct or remove them (the README's Configuration section lists every setting).`,
    );
  }
  return settings.data;
}

// A config file may hold numbers and arrays; the schema reads strings like the environment does.
function stringify(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join(",") : String(value),
    ]),
  );
}
