import { ConfigError } from "../config/loadConfig";
import { portsInUse } from "./portsInUse";

export type WantedPort = {
  port: number;
  host: string;
  /** The setting that chose the port, named in the error. */
  setting: string;
  /** What would listen there, in words ("the API", "the local base chain"). */
  what: string;
};

/**
 * Stops start-up before anything starts when a wanted port is taken: a chain already on a
 * configured port (another `npm start`) would answer in place of ours, and seeding a world would
 * write into it. Port 0 (any free port) is never busy.
 * @example await refuseBusyPorts([{ port: 8402, host: "127.0.0.1", setting: "PORT", what: "the API" }]);
 */
export async function refuseBusyPorts(wanted: WantedPort[]): Promise<void> {
  const busy = await portsInUse(wanted);
  if (busy.length === 0) return;
  const first = busy[0] as WantedPort;
  const list = busy
    .map((entry) => `port ${entry.port} (${entry.what}, set by ${entry.setting})`)
    .join("; ");
  throw new ConfigError(
    `${first.setting}: ${list}: already in use (another presend running?). Nothing was started and nothing was written to any chain. Stop the other process, or choose free ports (0 picks any).`,
  );
}
