import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { type ComposedServer, type ComposeOptions, composeServer } from "./composeServer";
import { type Config, ConfigError } from "./config/loadConfig";
import { freePort } from "./devnet/startAnvil";
import { startWorld, type World } from "./devnet/startWorld";
import { portsInUse } from "./http/portsInUse";
import { serveWithDrain } from "./lifecycle/serveWithDrain";

export type RunningServer = ComposedServer & {
  url: string;
  /** The embedded local world, when the network is local. */
  world: World | null;
  stop: () => Promise<void>;
};

/**
 * Starts everything `npm start` runs: the local world (when the network is local) and the API on
 * the configured port. Stops what it started if any step fails.
 * @example const server = await startServer(loadConfig({ PORT: "0", DEVNET_FIRST_PORT: "0" }));
 */
export async function startServer(
  config: Config,
  options: Omit<ComposeOptions, "publicUrl"> = {},
): Promise<RunningServer> {
  // Before anything starts: a chain already on a configured port (another `npm start`) would
  // answer in place of ours, and seeding the world would write into it.
  await refuseBusyPorts(config);
  const world =
    config.network === "local"
      ? await startWorld({ ports: devnetPorts(config.devnetFirstPort) })
      : null;
  let composed: ComposedServer | undefined;
  try {
    // Port 0 means "any free port": pick it now so the public URL in the documents is right.
    const port = config.port === 0 ? await freePort() : config.port;
    const shownHost = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
    const publicUrl = config.publicUrl ?? `http://${shownHost}:${port}`;
    composed = await composeServer(config, world, { ...options, publicUrl });
    const server = await serveWithDrain(composed.app, { port, host: config.host });
    const { close, operations } = composed;
    return {
      ...composed,
      url: publicUrl,
      world,
      stop: async () => {
        // Readiness turns 503, new connections are refused, paid requests in flight settle and
        // record before the records store closes.
        operations.startDraining();
        const drained = await server.drain(config.drainTimeoutMs);
        operations.logger.info(drained, "drained");
        await close();
        await world?.stop();
      },
    };
  } catch (error) {
    await composed?.close();
    await world?.stop();
    throw error;
  }
}

async function refuseBusyPorts(config: Config): Promise<void> {
  const wanted = [
    { port: config.port, host: config.host, setting: "PORT", what: "the API" },
    ...(config.network === "local"
      ? Object.entries(devnetPorts(config.devnetFirstPort)).map(([chain, port]) => ({
          port: port as number,
          host: "127.0.0.1",
          setting: "DEVNET_FIRST_PORT",
          what: `the local ${chain} chain`,
        }))
      : []),
  ];
  const busy = await portsInUse(wanted);
  if (busy.length === 0) return;
  const first = busy[0] as (typeof wanted)[number];
  const list = busy
    .map((entry) => `port ${entry.port} (${entry.what}, set by ${entry.setting})`)
    .join("; ");
  throw new ConfigError(
    `${first.setting}: ${list}: already in use (another presend running?). Nothing was started and nothing was written to any chain. Stop the other process, or choose free ports (0 picks any).`,
  );
}

/** Consecutive ports from `first` in chain order; 0 lets every chain take a free port. */
function devnetPorts(first: number): Partial<Record<ChainName, number>> {
  if (first === 0) return {};
  return Object.fromEntries(chainNames.map((name, index) => [name, first + index]));
}
