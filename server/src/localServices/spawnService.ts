import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";

export type SpawnedService = {
  name: string;
  process: ChildProcess;
  /** Everything the service wrote to stderr and stdout so far (start-up errors name their cause). */
  output: () => string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process group is gone. */
  stop: (graceMs?: number) => Promise<void>;
  /** Sends `signal` to the service's process group (a crash test sends SIGKILL). */
  kill: (signal: NodeJS.Signals) => void;
  /** Resolves when the service process has exited. */
  exited: Promise<void>;
};

export type SpawnServiceOptions = {
  name: string;
  command: string;
  args: string[];
  /** Resolves once the service answers; polled until `timeoutMs`. */
  ready: () => Promise<boolean>;
  timeoutMs?: number;
  uid?: number;
  gid?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
};

const runningGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Spawns a long-running local service (PostgreSQL, Redis, nginx, an API replica) in its own
 * process group, waits until `ready` says it answers, and stops the whole group on stop() or when
 * this process exits. A service that dies during start-up rejects with its own output.
 * @example const redis = await spawnService({ name: "redis", command: "redis-server", args, ready });
 */
export async function spawnService(options: SpawnServiceOptions): Promise<SpawnedService> {
  const spawnOptions: SpawnOptions = {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    env: options.env ?? process.env,
    ...(options.cwd !== undefined && { cwd: options.cwd }),
    ...(options.uid !== undefined && { uid: options.uid }),
    ...(options.gid !== undefined && { gid: options.gid }),
  };
  const child = spawn(options.command, options.args, spawnOptions);
  const groupId = child.pid;
  if (groupId === undefined) throw new ConfigurationError(`${options.name} could not be spawned`);
  runningGroups.add(groupId);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const group of runningGroups) killGroup(group, "SIGKILL");
    });
  }
  let output = "";
  const keep = (chunk: Buffer) => {
    // The tail is what explains a failure; a chatty service must not grow this without bound.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => runningGroups.delete(groupId));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  const stop = async (graceMs = 5_000) => {
    if (!hasExited()) {
      killGroup(groupId, "SIGTERM");
      const timer = setTimeout(() => killGroup(groupId, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    }
    // Children of the service (worker processes) go with their group.
    killGroup(groupId, "SIGKILL");
  };

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (true) {
    if (hasExited()) {
      throw new ConfigurationError(`${options.name} exited during start-up:\n${output.trim()}`);
    }
    if (await options.ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop(0);
      throw new ConfigurationError(
        `${options.name} did not become ready in time:\n${output.trim()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    name: options.name,
    process: child,
    output: () => output,
    stop,
    kill: (signal) => killGroup(groupId, signal),
    exited,
  };
}
