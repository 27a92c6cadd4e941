import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodes } from "../cli/runCli";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { startTamperingProxy } from "../payments/testing/startTamperingProxy";

const bin = fileURLToPath(new URL("../../bin/presend.js", import.meta.url));
const { world, lane, fund } = sharedPaymentWorld();

/** `presend mcp` spoken to line by line, as a host that misbehaves does: raw JSON-RPC on stdio. */
function rawMcp(env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, "mcp"], {
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  // The server may be gone before a write of the test's lands: that is what some cases test.
  child.stdin.on("error", () => {});
  child.stdout.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  /** Resolves with the answer to request `id` once it is on stdout. */
  const answer = async (id: number) => {
    for (;;) {
      const line = stdout
        .split("\n")
        .filter((text) => text !== "")
        .map((text) => JSON.parse(text) as { id?: number })
        .find((message) => message.id === id);
      if (line) return line as { id: number; result?: { content: { text: string }[] } };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    child,
    send,
    answer,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** Every line a session wrote on stdout is a JSON-RPC message: nothing else is ever printed there. */
const onlyProtocol = (stdout: string) => {
  for (const line of stdout.split("\n").filter((text) => text !== "")) {
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  }
};

// An MCP host is a process that may go away, or write what the server cannot read: `presend mcp`
// as a real process against the paid API on a real port, on a payment lane of the shared world.
describe("presend mcp over stdio when the host misbehaves", () => {
  let stack: PaidStack;
  let server: Listening;
  const dirs: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("the host goes away while a check is being paid: no crash, exit 0, the receipt id in the log, and that id fetches the charged report", async () => {
    const walletKey = devnetPrivateKey(`lane-${lane.index}-mcp-host-gone-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 5n * routePrices.check);
    const home = mkdtempSync(join(tmpdir(), "presend-mcp-host-gone-"));
    dirs.push(home);
    const proxy = await startTamperingProxy(server.url);
    // The server has settled the payment; its answer is held until the host is gone.
    const { reached: paidReached, release } = proxy.holdPaidAnswers();
    const env = {
      PRESEND_URL: proxy.url,
      PRESEND_PRIVATE_KEY: walletKey,
      XDG_CONFIG_HOME: home,
      PRESEND_CHANNEL: "off",
    };
    const target = privateKeyToAccount(generatePrivateKey()).address;
    const before = await stack.usdcBalance(wallet.address);
    try {
      const session = rawMcp(env);
      await session.answer(0);
      session.send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "check", arguments: { address: target, chain: "base" } },
      });
      await paidReached;
      // The host's process ends: both its pipes close.
      session.child.stdin.end();
      session.child.stdout.destroy();
      release();

      const code = await session.exited;
      const stderr = session.stderr();
      expect(code, stderr).toBe(0);
      expect(stderr).not.toMatch(/EPIPE|node:events|Unhandled/);
      const nonce = /`presend receipt (0x[0-9a-f]{64})`/.exec(stderr)?.[1];
      expect(nonce, stderr).toBeDefined();
      expect(stderr).toMatch(/payment settled \(receipt 0x[0-9a-f]{64}\)/);
      expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);

      // The id in the log is all the payer needs: the CLI fetches the charged report with it.
      proxy.set(null);
      const fetched = await new Promise<{ code: number; stdout: string; stderr: string }>(
        (resolve) =>
          execFile(
            process.execPath,
            [bin, "receipt", nonce ?? ""],
            { env: { ...process.env, ...env } },
            (error, stdout, stderr) =>
              resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
          ),
      );
      expect(fetched.code, fetched.stderr).toBe(exitCodes.ok);
      expect(fetched.stdout).toContain(target);
      expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);
    } finally {
      release();
      await proxy.close();
    }
  }, 60_000);

  it("a line that is not JSON-RPC is logged, not answered on stdout, and the session goes on; a line over 10 MiB ends it, said in the log, nothing charged", async () => {
    const walletKey = devnetPrivateKey(`lane-${lane.index}-mcp-bad-lines-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 5n * routePrices.check);
    const before = await stack.usdcBalance(wallet.address);
    const home = mkdtempSync(join(tmpdir(), "presend-mcp-bad-lines-"));
    dirs.push(home);
    const session = rawMcp({
      PRESEND_URL: server.url,
      PRESEND_PRIVATE_KEY: walletKey,
      XDG_CONFIG_HOME: home,
    });
    await session.answer(0);
    session.child.stdin.write("{not json\n");
    session.child.stdin.write('{"jsonrpc":"2.0","id":7}\n');
    const address = privateKeyToAccount(generatePrivateKey()).address;
    session.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "validate", arguments: { address } },
    });
    expect((await session.answer(2)).result?.content[0]?.text).toContain(address);
    expect(session.stderr()).toContain(
      "presend mcp: unreadable message from the host: Expected property name",
    );
    expect(session.stderr()).toContain(
      "presend mcp: unreadable message from the host: valid JSON but not a JSON-RPC message",
    );

    // A paid call behind an oversize line is never read, so never paid.
    session.child.stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"validate","arguments":{"address":"0x${"a".repeat(11 * 1024 * 1024)}"}}}\n`,
    );
    session.send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "check", arguments: { address, chain: "base" } },
    });
    const code = await session.exited;
    expect(code, session.stderr()).toBe(0);
    expect(session.stderr()).toContain("ReadBuffer exceeded maximum size of 10485760 bytes");
    expect(session.stderr()).toContain("presend mcp: session ended");
    expect(session.stderr()).not.toContain("payment sent");
    onlyProtocol(session.stdout());
    expect(session.stdout()).not.toContain('"id":4');
    expect(await stack.usdcBalance(wallet.address)).toBe(before);
  }, 60_000);
});
