import { join } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createPresendClient, createSessionSpendCap } from "@presend/client";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { type Hex, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { channelOptions } from "../cli/channelOptions";
import { openPinStore } from "../cli/openPinStore";
import { defaultServerUrl } from "../cli/runCli";
import { createMcpServer } from "./createMcpServer";

/** Default total a session may spend: ten checks or two deep checks. */
export const defaultSpendCapUsd = "0.10";

const McpEnvSchema = z.object({
  PRESEND_URL: z.url().default(defaultServerUrl),
  PRESEND_PRIVATE_KEY: z
    .string()
    .regex(bytes32Pattern, "PRESEND_PRIVATE_KEY must be 0x followed by 64 hex characters")
    .optional(),
  PRESEND_SPEND_CAP: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, "PRESEND_SPEND_CAP must be USD like 0.10")
    .default(defaultSpendCapUsd),
});

/**
 * `presend mcp`: the MCP server on stdio, paying from PRESEND_PRIVATE_KEY within the session's
 * spend cap, pinning keys in the same pins.json as the CLI. Without a key, validate still works
 * and the paid tools answer that no key is configured.
 * @example await runMcpServer(process.env, configDir(process.env));
 */
export async function runMcpServer(
  env: Record<string, string | undefined>,
  configDir: string,
): Promise<void> {
  const config = McpEnvSchema.parse({
    PRESEND_URL: env.PRESEND_URL || undefined,
    PRESEND_PRIVATE_KEY: env.PRESEND_PRIVATE_KEY || undefined,
    PRESEND_SPEND_CAP: env.PRESEND_SPEND_CAP || undefined,
  });
  const spendCapUnits = parseUnits(config.PRESEND_SPEND_CAP, 6);
  const channel = channelOptions(env, { configDir, durable: false });
  const client = createPresendClient({
    url: config.PRESEND_URL,
    ...(config.PRESEND_PRIVATE_KEY && {
      signer: privateKeyToAccount(config.PRESEND_PRIVATE_KEY as Hex),
    }),
    pinStore: openPinStore(join(configDir, "pins.json")),
    spendCap: createSessionSpendCap(spendCapUnits),
    // The same check again within the server's window is read back signed in, not paid again.
    signIn: true,
    // A channel's deposit is reserved whole in the session's spend cap when it is signed.
    ...(channel && { channel }),
  });
  const server = createMcpServer({ client, spendCapUnits, version: "1.0.0" });
  await server.connect(new StdioServerTransport());
}
