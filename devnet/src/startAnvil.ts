import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import getPort from "get-port";

const require = createRequire(import.meta.url);

/** Path of the anvil binary shipped by `@foundry-rs/anvil` for this platform. */
export function anvilBinaryPath(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

export type AnvilInstance = {
  chainId: number;
  port: number;
  rpcUrl: string;
  /** The watchdog shell; anvil runs as its child, in a process group whose id is `process.pid`. */
  process: ChildProcess;
  stop: () => Promise<void>;
};

export type StartAnvilOptions = { chainId: number; port?: number; timeoutMs?: number };

// Node cannot ask the kernel to kill a child when the parent dies (no prctl), so anvil runs under
// a tiny shell watchdog that holds the read end of a pipe from this process. Whenever this process
// goes away (exit, crash, SIGKILL) the kernel closes the write end, `read` sees EOF and the
// watchdog kills anvil. The shell also exits as soon as anvil does, so start-up errors surface.
const watchdogScript = [
  "exec 3<&0", // keep the pipe: background jobs get /dev/null as stdin
  '"$@" 3<&- &',
  "anvil=$!",
  '{ read -r _ <&3; kill "$anvil" 2>/dev/null; } &',
  "watcher=$!",
  "exec 3<&-",
  'wait "$anvil"',
  "status=$?",
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join("\n");

/** Process groups of running anvils, killed synchronously if this process exits normally. */
const runningGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Already gone.
  }
}

function trackGroup(groupId: number): void {
  runningGroups.add(groupId);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const group of runningGroups) killGroup(group, "SIGKILL");
  });
}

/**
 * Spawns one anvil chain on loopback and resolves once it answers JSON-RPC.
 * @example const base = await startAnvil({ chainId: 8453 });
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const port = options.port ?? (await getPort({ host: "127.0.0.1" }));
  // --mixed-mining: instant receipts, and a block every second keeps timestamps fresh.
  const anvilArgs = [
    "--silent",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(options.chainId),
    "--mixed-mining",
    "--block-time",
    "1",
    // The last 500 states stay in memory and none go to disk: by default anvil writes every older
    // state under ~/.foundry/anvil/tmp (gigabytes for a few thousand blocks) and leaves it there
    // when it is killed. Nothing here reads state that old; logs and headers are all kept.
    "--prune-history",
    "500",
  ];
  // detached: its own process group, so stop() can kill the shell, the watcher and anvil at once.
  const child = spawn(
    "/bin/sh",
    ["-c", watchdogScript, "presend-anvil", anvilBinaryPath(), ...anvilArgs],
    {
      stdio: ["pipe", "ignore", "pipe"],
      detached: true,
    },
  );
  const groupId = child.pid;
  if (groupId === undefined)
    throw new ConfigurationError(`anvil (chain ${options.chainId}) could not be spawned`);
  trackGroup(groupId);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Writing to a watchdog that already died must not crash this process.
  child.stdin?.on("error", () => {});
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const exitedPromise = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exitedPromise.then(() => runningGroups.delete(groupId));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const exited = exitedPromise.then((): never => {
    throw new ConfigurationError(
      `anvil (chain ${options.chainId}) exited with ${child.exitCode}: ${stderr.trim()}`,
    );
  });
  exited.catch(() => {});
  // Memoised: a later second call must not signal a process group id the OS may have reused.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stopOnce();
    return stopping;
  };
  const stopOnce = async () => {
    if (!hasExited()) {
      // Closing the pipe is the watchdog's signal; SIGKILL the group if it does not finish.
      child.stdin?.end();
      const timer = setTimeout(() => killGroup(groupId, "SIGKILL"), 3_000);
      await exitedPromise;
      clearTimeout(timer);
    }
    // The watcher subshell may outlive the shell by a moment; nothing of the group may remain.
    killGroup(groupId, "SIGKILL");
    runningGroups.delete(groupId);
  };
  const expectedChainId = `0x${options.chainId.toString(16)}`;
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (Date.now() < deadline) {
    const ready = await Promise.race([
      fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      }).then(
        // Another chain may already hold a configured port: only our chain id counts as ready.
        async (response) =>
          response.ok &&
          ((await response.json()) as { result?: string }).result === expectedChainId,
        () => false,
      ),
      exited,
    ]);
    if (ready) return { chainId: options.chainId, port, rpcUrl, process: child, stop };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await stop();
  throw new ConfigurationError(
    `anvil (chain ${options.chainId}) did not answer on ${rpcUrl}: ${stderr.trim()}`,
  );
}
