import type { ChainName } from "@presend/shared/chains/chains";
import { chainNames } from "@presend/shared/chains/chains";
import { createApp } from "./app";
import { type ChainReader, createChainReader } from "./chain/createChainReader";
import { defaultRpcUrls } from "./chain/defaultRpcUrls";
import type { Config } from "./config/loadConfig";
import { freePort } from "./devnet/startAnvil";
import { startWorld, type World } from "./devnet/startWorld";
import { createEngine, type Engine } from "./engine/createEngine";
import { probeChains } from "./health/probeChains";
import type { App } from "./http/appEnv";
import { listen } from "./http/listen";

export type RunningServer = {
  url: string;
  /** The embedded local world, when the network is local. */
  world: World | null;
  rpcUrls: Record<ChainName, string[]>;
  engine: Engine;
  reader: ChainReader;
  app: App;
  stop: () => Promise<void>;
};

/**
 * Starts everything `npm start` runs: the local world (when the network is local), the engine, and
 * the API on the configured port. Stops what it started if any step fails.
 * @example const server = await startServer(loadConfig({ PORT: "0", DEVNET_FIRST_PORT: "0" }));
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const world =
    config.network === "local"
      ? await startWorld({ ports: devnetPorts(config.devnetFirstPort) })
      : null;
  try {
    const rpcUrls = Object.fromEntries(
      chainNames.map((name) => [
        name,
        world ? [world.chains[name].rpcUrl] : (config.rpcUrls[name] ?? defaultRpcUrls[name]),
      ]),
    ) as Record<ChainName, string[]>;
    const reader = createChainReader({
      rpcUrls,
      timeoutMs: config.rpcTimeoutMs,
      ttlMs: config.cacheTtlMs,
    });
    const engine = createEngine({ reader });
    // Port 0 means "any free port": pick it now so the public URL in the documents is right.
    const port = config.port === 0 ? await freePort() : config.port;
    const shownHost = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
    const publicUrl = config.publicUrl ?? `http://${shownHost}:${port}`;
    const app = createApp({
      publicUrl,
      probe: () => probeChains({ rpcUrls, timeoutMs: config.rpcTimeoutMs }),
    });
    const server = await listen(app, { port, host: config.host });
    return {
      url: publicUrl,
      world,
      rpcUrls,
      engine,
      reader,
      app,
      stop: async () => {
        await server.close();
        await world?.stop();
      },
    };
  } catch (error) {
    await world?.stop();
    throw error;
  }
}

/** Consecutive ports from `first` in chain order; 0 lets every chain take a free port. */
function devnetPorts(first: number): Partial<Record<ChainName, number>> {
  if (first === 0) return {};
  return Object.fromEntries(chainNames.map((name, index) => [name, first + index]));
}
