import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createPresendClient } from "@presend/client";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { channelOptions } from "../cli/channelOptions";
import { openPinStore } from "../cli/openPinStore";
import { openSpendCaps } from "../cli/openSpendCaps";
import { readBaseChainReader } from "../cli/readBaseChainReader";
import { readServerUrl } from "../cli/readServerUrl";
import { readSpendCaps } from "../cli/readSpendCaps";
import { createMcpServer } from "./createMcpServer";

const McpEnvSchema = z.object({
  PRESEND_PRIVATE_KEY: z
    .string()
    .regex(bytes32Pattern, "PRESEND_PRIVATE_KEY must be 0x followed by 64 hex characters")
    .optional(),
});

/**
 * `presend mcp`: the MCP server on stdio, paying from PRESEND_PRIVATE_KEY within the session's
 * spend cap (PRESEND_SPEND_CAP) and the config directory's daily cap (PRESEND_DAILY_CAP), through
 * a payment channel when the server offers one (unless PRESEND_CHANNEL=off), pinning keys in the
 * same pins.json as the CLI. Without a key, validate still works and the paid tools answer that
 * no key is configured.
 * @example await runMcpServer(process.env, configDir(process.env));
 */
export async function runMcpServer(
  env: Record<string, string | undefined>,
  configDir: string,
): Promise<void> {
  const parsed = McpEnvSchema.safeParse({
    PRESEND_PRIVATE_KEY: env.PRESEND_PRIVATE_KEY || undefined,
  });
  // Named settings, never zod's dump (nor the key's value): main prints the message alone.
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const config = { ...parsed.data, PRESEND_URL: readServerUrl(env) };
  const spendCaps = readSpendCaps(env);
  // Base read access lets a channel whose last answer was lost resync and pay on.
  const readContract = readBaseChainReader(env);
  // On unless PRESEND_CHANNEL=off; a deposit above the session's cap is refused here, at start.
  const channel = channelOptions(env, {
    configDir,
    durable: false,
    maxDeposit: spendCaps.maxDeposit,
  });
  // stdout is the protocol's: what the host may not have shown goes to its log (stderr).
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const account = config.PRESEND_PRIVATE_KEY
    ? privateKeyToAccount(config.PRESEND_PRIVATE_KEY as Hex)
    : null;
  const client = createPresendClient({
    url: config.PRESEND_URL,
    ...(account && { signer: { ...account, ...(readContract && { readContract }) } }),
    pinStore: openPinStore(join(configDir, "pins.json")),
    spendCap: openSpendCaps(spendCaps, configDir),
    // The same check again within the server's window is read back signed in, not paid again.
    signIn: true,
    // A channel's deposit is reserved whole in the session's and the day's caps when it is signed.
    ...(channel && { channel }),
    // Each payment's receipt id in the host's log the moment it is sent: a host that goes away
    // mid-call (or a session that ends before answering) takes the answer with it, and this line
    // is then the only record of where the charged report is.
    onEvent: (event) => {
      if (event.type === "paying")
        log(
          `presend mcp: payment sent from ${event.authorization.payer}; if its answer is lost, the receipt tool with {"id":"${event.authorization.nonce}"} or \`presend receipt ${event.authorization.nonce}\` fetches its report`,
        );
      if (event.type === "settled")
        log(`presend mcp: payment settled (receipt ${event.settlement.transaction})`);
    },
  });
  const server = createMcpServer({
    client,
    payer: account?.address ?? null,
    spendCapUnits: spendCaps.session,
    dailyCapUnits: spendCaps.daily,
    channel: channel && {
      ...(channel.deposit !== undefined && { deposit: channel.deposit }),
      maxDeposit: spendCaps.maxDeposit,
    },
    version: "1.0.0",
    log,
  });
  // A line that is not JSON-RPC gets no answer from the SDK; the host's log says why, bounded
  // (a parse error quotes the line). A line over the SDK's 10 MiB ends the session: said too.
  server.server.onerror = (error) =>
    log(
      `presend mcp: unreadable message from the host: ${error.name === "ZodError" ? "valid JSON but not a JSON-RPC message" : oneLine(error.message)}`,
    );
  server.server.onclose = () => log("presend mcp: session ended");
  // A host that went away (its end of stdout closed) is no crash: the session ends, a payment
  // under way finishes and is named in the log above; unhandled, EPIPE killed the process with
  // a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    log("presend mcp: the host closed stdout");
    void server.close();
  });
  process.stderr.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  await server.connect(new StdioServerTransport());
}

/** An error's first line, at most 200 characters: the host's log is read by people. */
function oneLine(message: string): string {
  const line = message.split(/\r?\n/)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
