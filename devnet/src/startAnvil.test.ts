import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { livingProcessesInGroup } from "./livingProcessesInGroup";
import { type AnvilInstance, startAnvil } from "./startAnvil";

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe("startAnvil", () => {
  let anvil: AnvilInstance | undefined;
  afterAll(() => anvil?.stop());

  it("starts a chain with the requested id on a free loopback port and stops it", async () => {
    anvil = await startAnvil({ chainId: 42161 });
    const response = await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    expect(await response.json()).toMatchObject({ result: "0xa4b1" });
    const groupId = anvil.process.pid ?? 0;
    expect(livingProcessesInGroup(groupId).length).toBeGreaterThanOrEqual(2);
    await anvil.stop();
    expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true);
    expect(livingProcessesInGroup(groupId)).toEqual([]);
  });

  it("keeps old states in memory only: three thousand blocks write nothing under ~/.foundry/anvil/tmp", async () => {
    // Where anvil writes the states it no longer keeps in memory (gigabytes over a test run),
    // left behind by every anvil a test run kills.
    const stateDir = join(homedir(), ".foundry", "anvil", "tmp");
    const written = () => (existsSync(stateDir) ? readdirSync(stateDir) : []);
    const before = new Set(written());
    const chain = await startAnvil({ chainId: 8453 });
    try {
      const rpc = async (method: string, params: unknown[]) =>
        (
          (await (
            await fetch(chain.rpcUrl, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
            })
          ).json()) as { result?: unknown }
        ).result;
      // A transfer, then 3,000 blocks: past what anvil keeps in memory by default.
      await rpc("eth_sendTransaction", [
        {
          from: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
          to: "0x000000000000000000000000000000000000dEaD",
          value: "0x1",
        },
      ]);
      await rpc("anvil_mine", ["0xbb8"]);
      expect(Number(await rpc("eth_blockNumber", []))).toBeGreaterThanOrEqual(3_000);
      // Looked for while anvil runs (nothing tidies up after a killed one), and after its stop.
      expect(written().filter((entry) => !before.has(entry))).toEqual([]);
      // The chain's logs and headers stay readable however old.
      expect(await rpc("eth_getBlockByNumber", ["0x1", false])).toMatchObject({ number: "0x1" });
    } finally {
      await chain.stop();
    }
    expect(written().filter((entry) => !before.has(entry))).toEqual([]);
  }, 120_000);

  it("reports an anvil that cannot start instead of waiting for the timeout", async () => {
    const first = await startAnvil({ chainId: 1 });
    try {
      const started = Date.now();
      await expect(startAnvil({ chainId: 137, port: first.port })).rejects.toThrow(/exited/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await first.stop();
    }
  });

  it("kills anvil when the process that started it is killed with SIGKILL", async () => {
    const startAnvilPath = fileURLToPath(new URL("./startAnvil.ts", import.meta.url));
    const script = `
      const { startAnvil } = await import(${JSON.stringify(startAnvilPath)});
      const anvil = await startAnvil({ chainId: 10 });
      console.log(JSON.stringify({ groupId: anvil.process.pid, rpcUrl: anvil.rpcUrl }));
      setInterval(() => {}, 60_000);
    `;
    const parent = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const started = await new Promise<{ groupId: number; rpcUrl: string }>((resolve, reject) => {
      parent.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
      parent.once("exit", (code) => reject(new Error(`parent exited early with ${code}`)));
    });
    expect(livingProcessesInGroup(started.groupId).length).toBeGreaterThanOrEqual(2);
    parent.kill("SIGKILL");
    expect(await waitUntil(() => livingProcessesInGroup(started.groupId).length === 0, 5_000)).toBe(
      true,
    );
    await expect(fetch(started.rpcUrl, { method: "POST" })).rejects.toThrow();
  });
});
