import { type ComposedServer, type ComposeOptions, composeServer } from "./composeServer";
import type { Config } from "./config/loadConfig";
import { freePort } from "./http/freePort";
import { refuseBusyPorts } from "./http/refuseBusyPorts";
import { serveWithDrain } from "./lifecycle/serveWithDrain";

export type RunningServer = ComposedServer & {
  url: string;
  stop: () => Promise<void>;
};

/**
 * Starts the API on the configured port from plain configuration (RPC URLs, payTo, facilitator):
 * `composeServer`, then a listener that drains on stop. The local world is not its business
 * (`localDemo/startLocalDemo.ts` starts one and passes its configuration here).
 * @example const server = await startServer(loadConfig({ PORT: "0", PRESEND_NETWORK: "mainnet", ... }));
 */
export async function startServer(
  config: Config,
  options: Omit<ComposeOptions, "publicUrl"> = {},
): Promise<RunningServer> {
  await refuseBusyPorts([
    { port: config.port, host: config.host, setting: "PORT", what: "the API" },
  ]);
  let composed: ComposedServer | undefined;
  try {
    // Port 0 means "any free port": pick it now so the public URL in the documents is right.
    const port = config.port === 0 ? await freePort() : config.port;
    const shownHost = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
    const publicUrl = config.publicUrl ?? `http://${shownHost}:${port}`;
    composed = await composeServer(config, { ...options, publicUrl });
    const server = await serveWithDrain(composed.app, { port, host: config.host });
    const { close, operations } = composed;
    return {
      ...composed,
      url: publicUrl,
      stop: async () => {
        // Readiness turns 503, new connections are refused, paid requests in flight settle and
        // record before the records store closes.
        operations.startDraining();
        const drained = await server.drain(config.drainTimeoutMs);
        operations.logger.info(drained, "drained");
        await close();
      },
    };
  } catch (error) {
    await composed?.close();
    throw error;
  }
}
