import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";

/** The file in DATA_DIR that keeps a single server's receiver authorizer key. */
export const receiverAuthorizerKeyFile = "receiver-authorizer.key";

/**
 * The receiver authorizer key kept in `dataDir` (created on first start, readable by its owner
 * only). A key of the server's own is enough: it can only sign claims, which pay the channel's
 * receiver (payTo), and refunds, which pay the channel's payer, never anyone else; a channel
 * names it at its deposit, so it must outlive restarts, which the file gives a single server.
 * @example const key = await loadReceiverAuthorizerKey(config.dataDir);
 */
export async function loadReceiverAuthorizerKey(dataDir: string): Promise<Hex> {
  const path = join(dataDir, receiverAuthorizerKeyFile);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await mkdir(dataDir, { recursive: true });
    const key = generatePrivateKey();
    try {
      await writeFile(path, `${key}\n`, { flag: "wx", mode: 0o600 });
      return key;
    } catch (raced) {
      // Another process of the same data dir wrote it first: its key is the one.
      if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw raced;
      text = await readFile(path, "utf8");
    }
  }
  const key = text.trim();
  if (!bytes32Pattern.test(key)) {
    throw new ConfigurationError(`${path} does not hold a 0x-prefixed 32-byte hex key`);
  }
  return key as Hex;
}
