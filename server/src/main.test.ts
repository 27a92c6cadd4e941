import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { createPublicClient, http } from "viem";
import { describe, expect, it } from "vitest";

const mainFile = new URL("./main.ts", import.meta.url).pathname;
// One process, as `npm start` runs it (node --import tsx), so a signal reaches the server itself.
const nodeArgs = ["--import", "tsx", mainFile];

type Started = { child: ChildProcess; apiUrl: string; rpcUrls: string[]; output: () => string };

// `npm start` as a user runs it: a child process, the banner on stdout, a signal to stop it.
async function startMain(
  env: Record<string, string> = {},
  command: { file: string; args: string[]; cwd?: string } = {
    file: process.execPath,
    args: nodeArgs,
  },
): Promise<Started> {
  const child = spawn(command.file, command.args, {
    cwd: command.cwd,
    env: {
      ...process.env,
      PORT: "0",
      DEVNET_FIRST_PORT: "0",
      DATA_DIR: mkdtempSync(join(tmpdir(), "presend-main-")),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  // Five chains, seeding and the server: ~12 s alone, several times that with the suite around it.
  const deadline = Date.now() + 120_000;
  while (!output.includes("Ctrl-C stops everything") && Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`main exited early:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const apiUrl = /presend API\s+(\S+)/.exec(output)?.[1];
  const rpcUrls = [...output.matchAll(/^\s+\w+\s+\d+\s+(http:\/\/127\.0\.0\.1:\d+)$/gm)].map(
    (match) => match[1] as string,
  );
  if (!apiUrl || rpcUrls.length !== 5) throw new Error(`no banner:\n${output}`);
  return { child, apiUrl, rpcUrls, output: () => output };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("npm start (server/src/main.ts)", { timeout: 240_000 }, () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "serves the API and the five chains, and %s leaves no chain running",
    async (signal) => {
      const started = await startMain();
      const health = await (await fetch(`${started.apiUrl}/health`)).json();
      expect(health.status).toBe("ok");
      expect(started.output()).toContain("npx presend check");
      started.child.kill(signal);
      expect(await exited(started.child)).toBe(0);
      for (const url of started.rpcUrls) {
        expect(await eventually(async () => !(await answers(url)))).toBe(true);
      }
    },
  );

  // A supervisor signals the process it started, `npm start` itself: npm hands the signal to its
  // script's process only, so each script execs the next and the signal reaches the server.
  it("stops the server and every chain when npm start itself gets SIGTERM", async () => {
    const repoRoot = new URL("../..", import.meta.url).pathname;
    const started = await startMain({}, { file: "npm", args: ["start"], cwd: repoRoot });
    started.child.kill("SIGTERM");
    await exited(started.child);
    expect(await eventually(async () => !(await answers(started.apiUrl)))).toBe(true);
    for (const url of started.rpcUrls) {
      expect(await eventually(async () => !(await answers(url)))).toBe(true);
    }
  });

  it("leaves no chain running when the server process is killed outright", async () => {
    // A misspelled setting is said at start (and the server starts: the environment is shared).
    const started = await startMain({ CHANELS: "off", PATH: process.env.PATH ?? "" });
    expect(started.output()).toContain(
      "presend ignores CHANELS (did you mean CHANNELS?): not a setting it reads.",
    );
    expect(started.output()).not.toContain("presend ignores PATH");
    started.child.kill("SIGKILL");
    await exited(started.child);
    for (const url of started.rpcUrls) {
      expect(await eventually(async () => !(await answers(url)))).toBe(true);
    }
  });

  it.each([
    ["PORT", { PORT: "eighty" }],
    [
      "ATTESTATION_KEY_FILE",
      {
        PRESEND_NETWORK: "mainnet",
        PUBLIC_URL: "https://presend.example.com",
        PAY_TO: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
        FACILITATOR_URL: "http://127.0.0.1:9/",
        ATTESTATION_KEY_FILE: "/nonexistent/presend-key.json",
      },
    ],
  ])("stops with a message naming %s when that setting is bad", async (field, env) => {
    const child = spawn(process.execPath, nodeArgs, {
      env: { ...process.env, PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exited(child)).toBe(1);
    expect(stderr).toContain(`presend could not start`);
    expect(stderr).toMatch(new RegExp(`${field}: `));
  });

  // A key file an operator pasted wrong (the d of another key, a truncated value) passes the
  // JSON and field checks; it stopped start-up with a stack trace from deep in the signer.
  it("stops naming ATTESTATION_KEY_FILE, without a stack trace, when the key file's fields are not one key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-main-key-"));
    const { loadAttestationKey } = await import("./payments/attestation/loadAttestationKey");
    const key = await loadAttestationKey({ dataDir: dir });
    const file = join(dir, "pasted-wrong.json");
    writeFileSync(file, JSON.stringify({ ...key, d: key.d.slice(0, 20) }));
    const child = spawn(process.execPath, nodeArgs, {
      env: {
        ...process.env,
        PORT: "0",
        PRESEND_NETWORK: "mainnet",
        PUBLIC_URL: "https://presend.example.com",
        PAY_TO: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
        FACILITATOR_URL: "http://127.0.0.1:9/",
        DATA_DIR: dir,
        ATTESTATION_KEY_FILE: file,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exited(child)).toBe(1);
    expect(stderr).toContain(
      `presend could not start: ATTESTATION_KEY_FILE: attestation key file ${file}: `,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("a second start on busy ports writes nothing into the running chain and names the port and setting", async () => {
    const first = await startMain();
    try {
      const baseUrl = first.rpcUrls[0] as string;
      const basePort = new URL(baseUrl).port;
      const apiPort = new URL(first.apiUrl).port;
      const base = createPublicClient({ transport: http(baseUrl) });
      const state = () =>
        Promise.all([
          base.getCode({ address: chains.base.usdc.address }),
          base.getCode({ address: "0xcA11bde05977b3631167028862bE2a173976CA11" }),
          ...Object.values(devnetAccounts).map((account) =>
            base.getTransactionCount({ address: account.address }),
          ),
        ]);
      const before = await state();
      const attempts: Array<[setting: string, env: Record<string, string>, port: string]> = [
        ["DEVNET_FIRST_PORT", { DEVNET_FIRST_PORT: basePort }, basePort],
        ["PORT", { PORT: apiPort }, apiPort],
      ];
      for (const [setting, env, port] of attempts) {
        const second = spawn(process.execPath, nodeArgs, {
          env: {
            ...process.env,
            PORT: "0",
            DEVNET_FIRST_PORT: "0",
            DATA_DIR: mkdtempSync(join(tmpdir(), "presend-main-")),
            ...env,
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        second.stderr?.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        expect(await exited(second)).toBe(1);
        expect(stderr).toMatch(new RegExp(`${setting}: port ${port} \\(`));
        expect(stderr).toContain("already in use");
      }
      expect(await state()).toEqual(before);
      // The first server still serves.
      expect((await fetch(`${first.apiUrl}/health`)).status).toBe(200);
    } finally {
      first.child.kill("SIGTERM");
      await exited(first.child);
    }
  });
});
