import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";

const require = createRequire(import.meta.url);

/** Path of the anvil binary shipped by `@foundry-rs/anvil` for this platform. */
export function anvilBinaryPath(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

/** A free loopback TCP port (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not allocate a port"));
      });
    });
  });
}

export type AnvilInstance = {
  chainId: number;
  port: number;
  rpcUrl: string;
  process: ChildProcess;
  stop: () => Promise<void>;
};

export type StartAnvilOptions = { chainId: number; port?: number; timeoutMs?: number };

/**
 * Spawns one anvil chain on loopback and resolves once it answers JSON-RPC.
 * @example const base = await startAnvil({ chainId: 8453 });
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const port = options.port ?? (await freePort());
  // --mixed-mining: instant receipts, and a block every second keeps timestamps fresh.
  const child = spawn(
    anvilBinaryPath(),
    [
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
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`anvil (chain ${options.chainId}) exited with ${code}: ${stderr.trim()}`)),
    ),
  );
  exited.catch(() => {});
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  while (Date.now() < deadline) {
    const ready = await Promise.race([
      fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      }).then(
        (response) => response.ok,
        () => false,
      ),
      exited,
    ]);
    if (ready) return { chainId: options.chainId, port, rpcUrl, process: child, stop };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await stop();
  throw new Error(`anvil (chain ${options.chainId}) did not answer on ${rpcUrl}: ${stderr.trim()}`);
}
