import { startWorld, type World } from "@presend/devnet";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { ComposeOptions } from "../composeServer";
import type { Config } from "../config/loadConfig";
import { refuseBusyPorts } from "../http/refuseBusyPorts";
import { type RunningServer, startServer } from "../startServer";
import { worldConfig } from "./worldConfig";

export type LocalDemo = RunningServer & {
  /** The five local chains, the demo addresses and accounts the API runs on. */
  world: World;
};

/**
 * `npm start` on the local network: the local world (five anvil chains, seeded), then the API on
 * it. Every port is checked before anything starts; whatever started is stopped if a step fails.
 * @example const demo = await startLocalDemo(loadConfig({ PORT: "0", DEVNET_FIRST_PORT: "0" }));
 */
export async function startLocalDemo(
  config: Config,
  options: Omit<ComposeOptions, "publicUrl"> = {},
): Promise<LocalDemo> {
  const ports = devnetPorts(config.devnetFirstPort);
  // Before anything starts: a chain already on a configured port (another `npm start`) would
  // answer in place of ours, and seeding the world would write into it.
  await refuseBusyPorts([
    { port: config.port, host: config.host, setting: "PORT", what: "the API" },
    ...Object.entries(ports).map(([chain, port]) => ({
      port: port as number,
      host: "127.0.0.1",
      setting: "DEVNET_FIRST_PORT",
      what: `the local ${chain} chain`,
    })),
  ]);
  const world = await startWorld({ ports });
  try {
    const server = await startServer(worldConfig(config, world), options);
    return {
      ...server,
      world,
      stop: async () => {
        await server.stop();
        await world.stop();
      },
    };
  } catch (error) {
    await world.stop();
    throw error;
  }
}

/** Consecutive ports from `first` in chain order; 0 lets every chain take a free port. */
function devnetPorts(first: number): Partial<Record<ChainName, number>> {
  if (first === 0) return {};
  return Object.fromEntries(chainNames.map((name, index) => [name, first + index]));
}
