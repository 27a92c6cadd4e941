import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { ChannelPaymentOptions, ChannelSaltStore } from "@presend/client";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { toClientEvmSigner } from "@x402/evm";
import { FileClientChannelStorage } from "@x402/evm/batch-settlement/client/file-storage";
import { type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { fileDepositLedgerStore } from "./fileDepositLedgerStore";
import { fileLock } from "./fileLock";
import { writeFileWhole } from "./writeFileWhole";

/**
 * The server's refusal of a voucher counted from an older channel state than its own (an earlier
 * answer was lost), as the client passes it on when it could not resync: nothing was charged.
 */
export const channelOutOfStep = "invalid_batch_settlement_evm_cumulative_amount_mismatch";

const usdPattern = /^\d+(\.\d{1,6})?$/;

const ChannelEnvSchema = z.object({
  PRESEND_CHANNEL: z
    .enum(["on", "off"], { error: "PRESEND_CHANNEL must be on or off" })
    .default("on"),
  PRESEND_CHANNEL_DEPOSIT: z
    .string()
    .regex(usdPattern, "PRESEND_CHANNEL_DEPOSIT must be USD like 0.10")
    .transform((usd) => parseUnits(usd, 6))
    .refine((units) => units > 0n, "PRESEND_CHANNEL_DEPOSIT must be more than 0")
    .optional(),
});

/**
 * The channel payment the CLI or the MCP server uses when the server offers one (on unless
 * PRESEND_CHANNEL=off): a session key that signs the vouchers, where the channel's state and its
 * salt live (a closed channel is left for a new one), and its deposit: PRESEND_CHANNEL_DEPOSIT
 * (USD, e.g. 0.10), by default the client's (ten checks at the offered price), never more than
 * `maxDeposit` (the lower of the session's and the day's spend caps) — a configured deposit above it is refused here, before anything
 * is signed, and the default one is lowered to it. `durable` (the CLI: one process per check)
 * keeps the key and the state in the config directory, the key readable by its owner only, and
 * runs its payments one at a time across processes (a lock file beside the state);
 * otherwise (the MCP server) they live for the session.
 * null when PRESEND_CHANNEL=off (exact payments only); throws ConfigurationError on a malformed
 * setting or a deposit above the bound.
 * @example const channel = channelOptions(process.env, { configDir, durable: true, maxDeposit });
 */
export function channelOptions(
  env: Record<string, string | undefined>,
  options: { configDir: string; durable: boolean; maxDeposit: bigint },
): ChannelPaymentOptions | null {
  const parsed = ChannelEnvSchema.safeParse({
    PRESEND_CHANNEL: env.PRESEND_CHANNEL || undefined,
    PRESEND_CHANNEL_DEPOSIT: env.PRESEND_CHANNEL_DEPOSIT || undefined,
  });
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const { PRESEND_CHANNEL: switched, PRESEND_CHANNEL_DEPOSIT: deposit } = parsed.data;
  if (switched === "off") return null;
  if (deposit !== undefined && deposit > options.maxDeposit) {
    throw new ConfigurationError(
      `PRESEND_CHANNEL_DEPOSIT (${formatUsdc(deposit)}) is above the spend cap (${formatUsdc(options.maxDeposit)}, the lower of PRESEND_SPEND_CAP and PRESEND_DAILY_CAP): a deposit is spent whole once sent; lower it or raise the cap`,
    );
  }
  const sessionKey = options.durable ? storedSessionKey(options.configDir) : generatePrivateKey();
  return {
    voucherSigner: toClientEvmSigner(privateKeyToAccount(sessionKey)),
    ...(deposit !== undefined && { deposit }),
    maxDeposit: options.maxDeposit,
    ...(options.durable && {
      storage: new FileClientChannelStorage({ directory: join(options.configDir, "channels") }),
      saltStore: fileSaltStore(join(options.configDir, "channels", "salt")),
      depositLedger: fileDepositLedgerStore(join(options.configDir, "channels", "deposits.json")),
      // Runs started at once share this state: each pays with the state the last one left.
      lock: fileLock(join(options.configDir, "channels", "lock")),
    }),
  };
}

/**
 * The CLI's session key, made on first use; only a file its owner can read holds it. Runs started
 * at once in a new config directory all use the first one made: each writes its own key whole
 * under another name and links it into place, which fails when another run's is there already
 * (the one then read), so no run ever reads half a key or trips over another's file. A key file
 * that cannot be made or read is an error naming it and what to do.
 */
function storedSessionKey(configDir: string): Hex {
  const file = join(configDir, "channel-session.key");
  // A new key signs for a new channel (the key is part of the channel's identity): what the old
  // one holds comes back on its own.
  const replaced =
    "the next check makes a new key and pays through a new channel, with a new deposit, and the server refunds the rest of the old channel to your wallet once it has been idle (a day on presend's defaults)";
  if (!existsSync(file)) {
    const made = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(configDir, { recursive: true });
      writeFileSync(made, `${generatePrivateKey()}\n`, { mode: 0o600 });
      chmodSync(made, 0o600);
      try {
        linkSync(made, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      } finally {
        rmSync(made, { force: true });
      }
    } catch (error) {
      // A key half written on a full disk is no key: nothing of it is left behind.
      rmSync(made, { force: true });
      throw new ConfigurationError(
        `The channel session key ${file} cannot be made (${fileError(error)}): check that you can write to ${configDir}`,
      );
    }
  }
  let stored: string;
  try {
    stored = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new ConfigurationError(
      `The channel session key ${file} cannot be read (${fileError(error)}): it signs this wallet's channel payments. Check that it is a file you can read (it is made readable by its owner only); if something else is in its place, move it away: ${replaced}`,
    );
  }
  if (!bytes32Pattern.test(stored)) {
    throw new ConfigurationError(
      `The channel session key ${file} is damaged: it does not hold a key (0x and 64 hex digits). Put back the file from a backup if you have one; otherwise move it away: ${replaced}`,
    );
  }
  return stored as Hex;
}

/** A file system error in a few words: what is wrong, without the path it repeats. */
function fileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return "a directory is in its place";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/**
 * The current channel's salt beside its state, so the next process pays through the same one.
 * A new salt is written whole under another name, flushed and renamed into place: a run killed
 * mid-write leaves the old salt or the new one, never half of one. A salt file that is damaged
 * anyway is an error naming it, never replaced by a new salt on its own: the salt it held names
 * the channel the wallet's deposit may still be in.
 */
function fileSaltStore(file: string): ChannelSaltStore {
  return {
    async read() {
      if (!existsSync(file)) return null;
      const stored = readFileSync(file, "utf8").trim();
      if (!bytes32Pattern.test(stored)) {
        throw new ConfigurationError(
          `${file} is damaged: it does not hold a channel salt (0x and 64 hex digits). The salt names the payment channel this wallet pays through, which may still hold a deposit: put back the file from a backup if you have one; otherwise remove it: the next check pays through another channel, with a new deposit, and the server refunds the rest of the old one to your wallet once it has been idle (a day on presend's defaults)`,
        );
      }
      return stored as Hex;
    },
    async write(salt) {
      writeFileWhole(file, `${salt}\n`);
    },
  };
}
