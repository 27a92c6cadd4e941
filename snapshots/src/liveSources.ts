import { chains } from "@presend/shared/chains/chains";
import { z } from "zod";
import type { Sources } from "./collect";
import { httpDirectorySource } from "./sources/directorySource";
import { httpDiscoverySource } from "./sources/discoverySource";
import { rpcEvmInflowSource } from "./sources/evmInflowSource";
import { fileHistory } from "./sources/payToHistory";
import { rpcSolanaInflowSource } from "./sources/solanaInflowSource";

/** Live endpoints, overridable from the environment (PRESEND_SNAPSHOT_*). */
export const LiveConfigSchema = z.object({
  PRESEND_SNAPSHOT_DIRECTORY_URL: z.url().default("https://x402-list.com"),
  PRESEND_SNAPSHOT_ARBITRUM_RPC: z.url().default("https://arb1.arbitrum.io/rpc"),
  PRESEND_SNAPSHOT_BASE_RPC: z.url().default("https://mainnet.base.org"),
  PRESEND_SNAPSHOT_SOLANA_RPC: z.url().default("https://api.mainnet-beta.solana.com"),
  /** Public RPCs cap eth_getLogs ranges; start here and halve on refusal. */
  PRESEND_SNAPSHOT_MAX_BLOCK_RANGE: z.coerce.number().int().positive().default(10_000),
});
export type LiveConfig = z.infer<typeof LiveConfigSchema>;

const rpcRef = (name: string, url: string, role: string) => ({
  name,
  url,
  role,
  license: null,
  attribution: null,
});

/**
 * Sources that read the internet: the directory, every service's live documents, public RPCs.
 * @example const sources = liveSources(LiveConfigSchema.parse(process.env), "snapshots/history/payto");
 */
export function liveSources(config: LiveConfig, historyDir: string): Sources {
  const maxBlockRange = config.PRESEND_SNAPSHOT_MAX_BLOCK_RANGE;
  return {
    directory: httpDirectorySource({ baseUrl: config.PRESEND_SNAPSHOT_DIRECTORY_URL }),
    discovery: httpDiscoverySource(),
    discoveryRef: {
      name: "live discovery documents of each listed service",
      url: "{base_url}/.well-known/x402, {base_url}/openapi.json, 402 challenge",
      role: "declared payTo addresses and networks",
      license: null,
      attribution: null,
    },
    evm: {
      arbitrum: {
        source: rpcEvmInflowSource({
          rpcUrl: config.PRESEND_SNAPSHOT_ARBITRUM_RPC,
          usdc: chains.arbitrum.usdc.address,
          maxBlockRange,
        }),
        ref: rpcRef(
          "Arbitrum One JSON-RPC",
          config.PRESEND_SNAPSHOT_ARBITRUM_RPC,
          "USDC Transfer logs",
        ),
      },
      base: {
        source: rpcEvmInflowSource({
          rpcUrl: config.PRESEND_SNAPSHOT_BASE_RPC,
          usdc: chains.base.usdc.address,
          maxBlockRange,
        }),
        ref: rpcRef("Base JSON-RPC", config.PRESEND_SNAPSHOT_BASE_RPC, "USDC Transfer logs"),
      },
    },
    solana: {
      source: rpcSolanaInflowSource({ rpcUrl: config.PRESEND_SNAPSHOT_SOLANA_RPC }),
      ref: rpcRef(
        "Solana JSON-RPC",
        config.PRESEND_SNAPSHOT_SOLANA_RPC,
        "USDC token accounts, signatures and transactions",
      ),
    },
    history: fileHistory({ dir: historyDir }),
  };
}
