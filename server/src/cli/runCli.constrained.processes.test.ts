import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { startTamperingProxy } from "../payments/testing/startTamperingProxy";
import { exitCodes } from "./runCli";

const bin = fileURLToPath(new URL("../../bin/presend.js", import.meta.url));
const { world, lane, fund } = sharedPaymentWorld();

/** A shell command line, run as a CI job's script runs it: its exit code and what it wrote. */
const shell = (script: string, env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { env: { ...process.env, PRESEND: `${process.execPath} ${bin}`, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

// `presend` where agents and scripts run it: a container whose config directory is a read-only
// or full mount, a pipeline whose reader goes away. Real processes, real mounts (tmpfs; CI runs
// as root), against the paid API on a real port, on a payment lane of the shared world.
describe("presend in a constrained environment", () => {
  let stack: PaidStack;
  let server: Listening;
  const dirs: string[] = [];
  const mounts: string[] = [];

  /** A tmpfs of `size` mounted at a new directory, with `options` (ro, say). */
  const mountTmpfs = (options: string) => {
    const dir = mkdtempSync(join(tmpdir(), "presend-mount-"));
    dirs.push(dir);
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
    mounts.push(dir);
    return dir;
  };

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    for (const mount of mounts) execFileSync("umount", [mount]);
    await server?.close();
    await stack?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A payer with USDC and the env a run pays with from `configHome`. */
  const payer = async (name: string, configHome: string) => {
    const walletKey = devnetPrivateKey(`lane-${lane.index}-${name}`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 5n * routePrices.check);
    return {
      wallet,
      env: { PRESEND_URL: server.url, PRESEND_PRIVATE_KEY: walletKey, XDG_CONFIG_HOME: configHome },
    };
  };
  const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;

  it("`2>&1 | head -c 20`: the reader gone after the first line, the payment settled, the run ends with its own exit code and no crash; the same check again reads the report back, free", async () => {
    const home = mkdtempSync(join(tmpdir(), "presend-pipe-"));
    dirs.push(home);
    const { wallet, env } = await payer("cli-stderr-pipe-payer", home);
    const target = newAddress();
    const before = await stack.usdcBalance(wallet.address);

    // The first line (the pin) is read; the next ones (the settlement) meet a closed pipe.
    const run = await shell(
      `$PRESEND check ${target} --no-channel 2>&1 | head -c 20; echo " exit=\${PIPESTATUS[0]}"`,
      env,
    );
    expect(run.stdout).toBe("presend: pinned atte exit=0\n");
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);

    // The charged payer gets the report: read back signed in, nothing charged again.
    const again = await shell(`$PRESEND check ${target} --no-channel`, env);
    expect(again.code, again.stderr).toBe(exitCodes.ok);
    expect(again.stdout).toContain(target);
    expect(again.stderr).toContain("read again signed in");
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);
  }, 60_000);

  it("SIGHUP (the terminal or CI session that started it went away) after the payment was sent: charged unknown, exit 6, the receipt id named, and it fetches the report", async () => {
    const home = mkdtempSync(join(tmpdir(), "presend-hangup-"));
    dirs.push(home);
    const { wallet, env } = await payer("cli-hangup-payer", home);
    const proxy = await startTamperingProxy(server.url);
    // The server has settled the payment; its answer is held until the run was hung up on.
    const { reached: paidReached, release } = proxy.holdPaidAnswers();
    const target = newAddress();
    const before = await stack.usdcBalance(wallet.address);
    try {
      const child = spawn(process.execPath, [bin, "check", target, "--no-channel"], {
        env: { ...process.env, ...env, PRESEND_URL: proxy.url },
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      await paidReached;
      child.kill("SIGHUP");
      const code = await exited;
      expect(code, stderr).toBe(exitCodes.chargedNoReport);
      expect(stderr).toContain("presend: charged: unknown");
      const nonce = /presend receipt (0x[0-9a-f]{64})/.exec(stderr)?.[1];
      expect(nonce, stderr).toBeDefined();
      release();
      proxy.set(null);
      const fetched = await shell(`$PRESEND receipt ${nonce}`, { ...env, PRESEND_URL: proxy.url });
      expect(fetched.code, fetched.stderr).toBe(exitCodes.ok);
      expect(fetched.stdout).toContain(target);
      expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);
    } finally {
      release();
      await proxy.close();
    }
  }, 60_000);

  it("a read-only config directory: a first check refuses to pay (exit 3) naming the pins file, nothing sent; a channel check refuses at its key (exit 2)", async () => {
    const home = mountTmpfs("ro,size=64k");
    const { wallet, env } = await payer("cli-read-only-payer", home);
    const proxy = await startTamperingProxy(server.url);
    const before = await stack.usdcBalance(wallet.address);
    try {
      const exact = await shell(`$PRESEND check ${newAddress()} --no-channel`, {
        ...env,
        PRESEND_URL: proxy.url,
      });
      expect(exact.code, exact.stderr).toBe(exitCodes.refusedToPay);
      expect(exact.stderr).toContain("refusing to pay: The attestation key cannot be pinned");
      expect(exact.stderr).toContain(`(pins: ${join(home, "presend", "pins.json")})`);
      expect(exact.stderr).toContain("charged: no");
      expect(exact.stderr).not.toMatch(/\n\s+at /);

      const channel = await shell(`$PRESEND check ${newAddress()}`, {
        ...env,
        PRESEND_URL: proxy.url,
      });
      expect(channel.code, channel.stderr).toBe(exitCodes.usage);
      expect(channel.stderr).toContain(`${join(home, "presend", "channel-session.key")} cannot`);

      expect(proxy.paymentsForwarded()).toBe(0);
      expect(await stack.usdcBalance(wallet.address)).toBe(before);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it("a full config directory: refused before anything is signed, at the pin (first use) or at the day's ledger, and no half-made file left", async () => {
    const home = mountTmpfs("size=64k");
    const { wallet, env } = await payer("cli-full-disk-payer", home);
    const before = await stack.usdcBalance(wallet.address);
    const fill = () => {
      // Filled to its last block: every write from here fails with ENOSPC.
      try {
        writeFileSync(join(home, "fill"), Buffer.alloc(1024 * 1024));
      } catch {}
    };
    fill();
    const first = await shell(`$PRESEND check ${newAddress()} --no-channel`, env);
    expect(first.code, first.stderr).toBe(exitCodes.refusedToPay);
    expect(first.stderr).toContain("The attestation key cannot be pinned");
    expect(first.stderr).not.toMatch(/\n\s+at /);

    // Pinned earlier, with the disk filled since: the day's ledger cannot count the payment.
    rmSync(join(home, "fill"));
    const pinnedRun = await shell(`$PRESEND check ${newAddress()} --no-channel`, {
      ...env,
      PRESEND_DAILY_CAP: "0.00",
    });
    // A daily cap of zero pays nothing but pins the key on the way (pins come before the cap).
    expect(pinnedRun.code, pinnedRun.stderr).toBe(exitCodes.refusedToPay);
    expect(pinnedRun.stderr).toContain("pinned attestation key");
    expect(pinnedRun.stderr).toContain("PRESEND_DAILY_CAP");
    rmSync(join(home, "presend", "spend.sqlite"), { force: true });
    fill();
    const ledger = await shell(`$PRESEND check ${newAddress()} --no-channel`, env);
    expect(ledger.code, ledger.stderr).toBe(exitCodes.refusedToPay);
    expect(ledger.stderr).toContain(
      `The daily spend ledger ${join(home, "presend", "spend.sqlite")}`,
    );
    expect(ledger.stderr).toContain("charged: no");

    const channel = await shell(`$PRESEND check ${newAddress()}`, env);
    expect(channel.code, channel.stderr).toBe(exitCodes.usage);
    expect(channel.stderr).toContain("channel-session.key cannot be made");
    expect(readdirSync(join(home, "presend")).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(await stack.usdcBalance(wallet.address)).toBe(before);
  }, 60_000);
});
