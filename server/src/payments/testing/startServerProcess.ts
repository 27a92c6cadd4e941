import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import type { World } from "@presend/devnet";

export type ServerProcess = {
  url: string;
  /** SIGKILL: no drain, no flush, no timer left; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the server drains (channels flushed, stores closed) and exits; resolves then. */
  stop(): Promise<void>;
  /** Everything the process wrote so far, stdout and stderr interleaved as they arrived. */
  output(): string;
};

const mainFile = new URL("./serverProcessMain.ts", import.meta.url).pathname;

/**
 * The paid API with channels in a child process of its own (serverProcessMain), on `world` and
 * `dataDir`, so a test can kill it outright as a crashed replica dies: nothing of it runs on
 * after the kill, unlike a server stopped in the test's own process.
 * @example const server = await startServerProcess({ world, dataDir, receiverAuthorizerKey }); await server.kill();
 */
export async function startServerProcess(options: {
  world: World;
  dataDir: string;
  receiverAuthorizerKey: `0x${string}`;
  /** The Base RPC payments go through (a fault-injecting proxy). */
  paymentRpcUrl?: string;
  /** Further settings as the environment gives them (e.g. CHANNEL_CLAIM_INTERVAL_SECS). */
  settings?: Record<string, string>;
}): Promise<ServerProcess> {
  const worldFile = join(options.dataDir, "world.v8");
  const { stop: _stop, ...world } = options.world;
  writeFileSync(worldFile, serialize(world));
  const child = spawn(process.execPath, ["--import", "tsx", mainFile], {
    env: {
      ...process.env,
      PRESEND_TEST_WORLD_FILE: worldFile,
      PRESEND_TEST_DATA_DIR: options.dataDir,
      PRESEND_TEST_RECEIVER_AUTHORIZER_KEY: options.receiverAuthorizerKey,
      ...(options.paymentRpcUrl && { PRESEND_TEST_PAYMENT_RPC_URL: options.paymentRpcUrl }),
      ...(options.settings && { PRESEND_TEST_SETTINGS: JSON.stringify(options.settings) }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const deadline = Date.now() + 120_000;
  let url: string | undefined;
  while (url === undefined) {
    url = /listening (\S+)/.exec(output)?.[1];
    if (url !== undefined) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server process did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    kill: () => ended(child, "SIGKILL"),
    stop: () => ended(child, "SIGTERM"),
    output: () => output,
  };
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    // "close": the process is gone and everything it wrote has been read.
    child.once("close", () => resolve());
    child.kill(signal);
  });
}
