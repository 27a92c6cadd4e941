import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ChannelPaymentOptions, ChannelSaltStore } from "@presend/client";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { toClientEvmSigner } from "@x402/evm";
import { FileClientChannelStorage } from "@x402/evm/batch-settlement/client/file-storage";
import { type Hex, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const depositPattern = /^\d+(\.\d{1,6})?$/;

/**
 * The channel payment the CLI or the MCP server uses when PRESEND_CHANNEL_DEPOSIT (USD, e.g.
 * 0.10) is set: its deposit, a session key that signs the vouchers, and where the channel's
 * state and its salt live (a closed channel is left for a new one). `durable` (the CLI: one
 * process per check) keeps them in the config directory, the key readable by its owner only;
 * otherwise (the MCP server) they live for the session.
 * null when PRESEND_CHANNEL_DEPOSIT is unset (exact payments only); throws on a malformed one.
 * @example const channel = channelOptions(process.env, { configDir, durable: true });
 */
export function channelOptions(
  env: Record<string, string | undefined>,
  options: { configDir: string; durable: boolean },
): ChannelPaymentOptions | null {
  const deposit = env.PRESEND_CHANNEL_DEPOSIT;
  if (!deposit) return null;
  if (!depositPattern.test(deposit) || parseUnits(deposit, 6) === 0n) {
    throw new ConfigurationError("PRESEND_CHANNEL_DEPOSIT must be USD like 0.10");
  }
  const sessionKey = options.durable ? storedSessionKey(options.configDir) : generatePrivateKey();
  return {
    voucherSigner: toClientEvmSigner(privateKeyToAccount(sessionKey)),
    deposit: parseUnits(deposit, 6),
    ...(options.durable && {
      storage: new FileClientChannelStorage({ directory: join(options.configDir, "channels") }),
      saltStore: fileSaltStore(join(options.configDir, "channels", "salt")),
    }),
  };
}

/** The CLI's session key, made on first use; only a file its owner can read holds it. */
function storedSessionKey(configDir: string): Hex {
  const file = join(configDir, "channel-session.key");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (!bytes32Pattern.test(stored))
      throw new ConfigurationError(`${file} does not hold a session key`);
    return stored as Hex;
  }
  mkdirSync(configDir, { recursive: true });
  const key = generatePrivateKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return key;
}

/** The current channel's salt beside its state, so the next process pays through the same one. */
function fileSaltStore(file: string): ChannelSaltStore {
  return {
    async read() {
      if (!existsSync(file)) return null;
      const stored = readFileSync(file, "utf8").trim();
      if (!bytes32Pattern.test(stored))
        throw new ConfigurationError(`${file} does not hold a salt`);
      return stored as Hex;
    },
    async write(salt) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${salt}\n`, { mode: 0o600 });
    },
  };
}
