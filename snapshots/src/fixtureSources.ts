import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { demonstrationNote } from "@presend/shared/api/snapshots/snapshotCommon";
import { z } from "zod";
import type { Sources } from "./collect";
import { startReplayServer } from "./replay/startReplayServer";
import { httpDirectorySource } from "./sources/directorySource";
import { httpDiscoverySource } from "./sources/discoverySource";
import { rpcEvmInflowSource } from "./sources/evmInflowSource";
import { fileHistory } from "./sources/payToHistory";
import { rpcSolanaInflowSource } from "./sources/solanaInflowSource";
import { startRailWorld, TransferPlanSchema } from "./world/startRailWorld";

// The fixture folder: manifest.json, http/ (recorded exchanges), evm/transfers.json (the transfers
// the local world makes), history/payto/ (dated payTo captures).
const ManifestSchema = z.object({
  as_of: z.iso.date(),
  directory_url: z.url(),
  solana_rpc_url: z.url(),
});

export type FixtureSources = {
  sources: Sources;
  asOf: string;
  provenance: { source: string; note: string };
  stop: () => Promise<void>;
};

async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, "utf8"));
}

/**
 * Every source backed by the fixture folder: recorded HTTP replayed on loopback, EVM inflow
 * measured on a local anvil world that makes the planned transfers.
 * @example const fixtures = await startFixtureSources("snapshots/fixtures"); ... await fixtures.stop();
 */
export async function startFixtureSources(dir: string): Promise<FixtureSources> {
  const manifest = ManifestSchema.parse(await readJson(join(dir, "manifest.json")));
  const plan = TransferPlanSchema.parse(await readJson(join(dir, "evm", "transfers.json")));
  const replay = await startReplayServer({ dir: join(dir, "http") });
  let world: Awaited<ReturnType<typeof startRailWorld>>;
  try {
    world = await startRailWorld({ plan });
  } catch (error) {
    await replay.stop();
    throw error;
  }
  const localRef = (name: "arbitrum" | "base", id: number) => ({
    name: `local anvil chain ${id} (${name}) with the fixture transfers`,
    url: `fixtures/evm/transfers.json`,
    role: `USDC Transfer logs on ${name}`,
    license: null,
    attribution: null,
  });
  const sources: Sources = {
    directory: httpDirectorySource({ baseUrl: manifest.directory_url, fetch: replay.fetch }),
    discovery: httpDiscoverySource({ fetch: replay.fetch }),
    discoveryRef: {
      name: "live discovery documents of each listed service (recorded)",
      url: "fixtures/http",
      role: "declared payTo addresses and networks",
      license: null,
      attribution: null,
    },
    evm: {
      arbitrum: {
        source: rpcEvmInflowSource({
          ...world.chains.arbitrum,
          rpcUrl: world.chains.arbitrum.rpcUrl,
        }),
        ref: localRef("arbitrum", 42161),
      },
      base: {
        source: rpcEvmInflowSource({ ...world.chains.base, rpcUrl: world.chains.base.rpcUrl }),
        ref: localRef("base", 8453),
      },
    },
    solana: {
      source: rpcSolanaInflowSource({ rpcUrl: manifest.solana_rpc_url, fetch: replay.fetch }),
      ref: {
        name: "Solana JSON-RPC (recorded)",
        url: manifest.solana_rpc_url,
        role: "USDC token accounts, signatures and transactions",
        license: null,
        attribution: null,
      },
    },
    history: fileHistory({ dir: join(dir, "history", "payto"), readOnly: true }),
  };
  return {
    sources,
    asOf: manifest.as_of,
    provenance: {
      source: `${demonstrationNote} (snapshots/fixtures, local anvil chains)`,
      note: demonstrationNote,
    },
    stop: async () => {
      await Promise.all([world.stop(), replay.stop()]);
    },
  };
}
