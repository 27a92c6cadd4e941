import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import type { World } from "@presend/devnet";

export type ServerProcess = {
  url: string;
  /** SIGKILL: no drain, no flush, no timer left; resolves once the process is gone. */
  kill(): Promise<void>;
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
  return { url, kill: () => killed(child) };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
