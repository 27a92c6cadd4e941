import type { PresendSigner } from "@presend/client";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { createPublicClient, http } from "viem";
import { base } from "viem/chains";
import { z } from "zod";

const BaseRpcUrlSchema = z
  .url({
    protocol: /^https?$/,
    error:
      "PRESEND_BASE_RPC_URL must be an http(s) JSON-RPC URL of Base, like https://mainnet.base.org",
  })
  .optional();

export type ChainReader = NonNullable<PresendSigner["readContract"]>;

/**
 * Read-only access to Base through PRESEND_BASE_RPC_URL, for the CLI's and the MCP server's
 * client: with it, a payment channel the server finds out of step (the answer of a charged check
 * was lost) is resynced from the escrow and the check paid once, instead of every later voucher
 * being refused. Null when unset or empty: the channel's state then comes only from the server's
 * answers (a channel with no state here is read from the escrow too, so an endpoint that does not
 * answer would fail its first deposit: none is guessed). Nothing is signed or sent through it.
 * Throws ConfigurationError naming the setting when it is not an http(s) URL.
 * @example const readContract = readBaseChainReader(process.env);
 */
export function readBaseChainReader(env: Record<string, string | undefined>): ChainReader | null {
  const parsed = BaseRpcUrlSchema.safeParse(env.PRESEND_BASE_RPC_URL || undefined);
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  if (parsed.data === undefined) return null;
  const client = createPublicClient({
    chain: base,
    transport: http(parsed.data, { retryCount: 1 }),
  });
  return (args) => client.readContract(args as Parameters<typeof client.readContract>[0]);
}
