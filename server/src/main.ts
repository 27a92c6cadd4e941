import { AttestationError } from "@presend/shared/errors/AttestationError";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { type Config, loadConfig } from "./config/loadConfig";
import { misspelledVariables } from "./config/misspelledVariables";
import { formatBanner } from "./localDemo/printBanner";
import type { LocalDemo } from "./localDemo/startLocalDemo";
import { type RunningServer, startServer } from "./startServer";

// The only file that binds a port: config, world, API, and a clean stop on every way out.
let server: RunningServer | LocalDemo | undefined;

/** The local network runs on a local world: five anvil chains from the devnet workspace. */
async function startLocalDemo(config: Config): Promise<LocalDemo> {
  // Loaded only here: the devnet is a development dependency, absent from the production image.
  const localDemo = await import("./localDemo/startLocalDemo");
  return localDemo.startLocalDemo(config);
}
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await server?.stop().catch((error) => console.error("while stopping:", error));
  }
  process.exit(code);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
process.on("SIGHUP", () => void shutdown(0));
process.on("uncaughtException", (error) => {
  console.error("presend crashed:", error);
  void shutdown(1);
});
process.on("unhandledRejection", (error) => {
  console.error("presend crashed:", error);
  void shutdown(1);
});

try {
  const config = loadConfig(process.env);
  for (const typo of misspelledVariables(process.env)) {
    console.error(`presend ignores ${typo.described}: not a setting it reads.`);
  }
  const started = performance.now();
  server = config.network === "local" ? await startLocalDemo(config) : await startServer(config);
  console.log(formatBanner(server));
  console.log(`(ready in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
} catch (error) {
  // A bad setting (or key file) is the operator's to fix: say which, without a stack trace.
  const operatorsToFix = error instanceof ConfigurationError || error instanceof AttestationError;
  console.error(operatorsToFix ? `presend could not start: ${error.message}` : error);
  await shutdown(1);
}
