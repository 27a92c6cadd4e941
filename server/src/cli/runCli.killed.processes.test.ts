import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
import { openDailySpendCap } from "./openDailySpendCap";
import { exitCodes } from "./runCli";

const bin = fileURLToPath(new URL("../../bin/presend.js", import.meta.url));
const { world, lane, fund } = sharedPaymentWorld();
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const price = routePrices.check;

/** One `presend` process: its exit code and what it wrote. */
const presend = (argv: string[], env: Record<string, string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...argv],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });

/** One `presend` process killed outright (no handler runs) once `when` resolves. */
const killedPresend = (argv: string[], env: Record<string, string>, when: Promise<void>) =>
  new Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    void when.then(() => child.kill("SIGKILL"));
    child.on("close", (_, signal) => resolve({ signal, stdout, stderr }));
  });

// A `presend check` paying over a channel, killed with SIGKILL (an OOM killer, a CI job's hard
// timeout) after its voucher reached the server and before the answer came back: the server
// charged it, the run wrote nothing down. Then the next runs with the same config directory.
// Real processes against the paid API on a real port, behind a proxy that holds the paid answer.
describe("presend check killed while its channel payment is answered", () => {
  let stack: PaidStack;
  let server: Listening;
  const dirs: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey,
      publicUrl: `http://127.0.0.1:${port}`,
    });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["its voucher, with Base read access", true],
    ["its voucher, without Base read access", false],
  ])(
    "killed after sending %s: the next run names the killed run's receipt, which fetches its report; every charge once, the chain and the records agree",
    async (_, baseAccess) => {
      const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-killed-${baseAccess}-payer`);
      const wallet = privateKeyToAccount(walletKey);
      await fund(wallet.address, 20n * price);
      const home = mkdtempSync(join(tmpdir(), "presend-killed-"));
      dirs.push(home);
      const proxy = await startTamperingProxy(server.url);
      const env = {
        PRESEND_URL: proxy.url,
        PRESEND_PRIVATE_KEY: walletKey,
        XDG_CONFIG_HOME: home,
        PRESEND_CHANNEL_DEPOSIT: "0.05",
        ...(baseAccess && { PRESEND_BASE_RPC_URL: world.chains.base.rpcUrl }),
      };
      const target = () => privateKeyToAccount(generatePrivateKey()).address;
      const before = await stack.usdcBalance(wallet.address);
      let release = () => {};
      try {
        const first = await presend(["check", target()], env);
        expect(first.code, first.stderr).toBe(exitCodes.ok);

        const killedTarget = target();
        const held = proxy.holdPaidAnswers();
        release = held.release;
        const killed = await killedPresend(["check", killedTarget], env, held.reached);
        expect(killed.signal).toBe("SIGKILL");
        expect(killed.stderr).not.toContain("receipt");
        release();
        proxy.set(null);

        // The next run tells what the killed one could not: its payment went out, and its id.
        const next = await presend(["check", target()], env);
        expect(next.stderr).toMatch(/an earlier run \(pid \d+\) was stopped at 20/);
        expect(next.stderr).toContain(`after sending the payment for check ${killedTarget}`);
        const nonce = /to fetch its report: presend receipt (0x[0-9a-f]{64})/.exec(
          next.stderr,
        )?.[1];
        expect(nonce, next.stderr).toBeDefined();
        // Over the channel, the next run pays on (resynced from Base), or is refused saying why,
        // nothing charged.
        if (baseAccess) {
          expect(next.code, next.stderr).toBe(exitCodes.ok);
          // Told once.
          const after = await presend(["check", target()], env);
          expect(after.code, after.stderr).toBe(exitCodes.ok);
          expect(after.stderr).not.toContain("was stopped");
        } else {
          expect(next.code, next.stderr).toBe(exitCodes.paymentFailed);
          expect(next.stderr).toContain("charged: no");
        }
        const paid = baseAccess ? 2 : 0;

        // Once a claim covers the killed run's voucher, its receipt id fetches its report.
        await stack.payments.channels?.manager().claim();
        const fetched = await presend(["receipt", nonce ?? "", "--json"], env);
        expect(fetched.code, fetched.stderr).toBe(exitCodes.ok);
        expect(fetched.stderr).toContain("charged: yes");
        expect(JSON.parse(fetched.stdout)).toMatchObject({ address: killedTarget });

        // The wallet paid the first check, the killed one and the ones that said so, each once.
        const charged = BigInt(2 + paid) * price;
        const closed = await presend(["close"], env);
        if (baseAccess) {
          expect(closed.code, closed.stderr).toBe(exitCodes.ok);
          expect(before - (await stack.usdcBalance(wallet.address))).toBe(charged);
        } else {
          // The close's refund voucher counts from the state the killed run left: refused,
          // said in presend's words with what to do.
          expect(closed.code, closed.stderr).toBe(exitCodes.serverError);
          expect(closed.stderr).toContain("record here is behind the server's");
          expect(closed.stderr).toContain("PRESEND_BASE_RPC_URL");
          expect(closed.stderr).toContain("(charged: no)");
        }
        // The day's ledger never holds less than left the wallet.
        const left = before - (await stack.usdcBalance(wallet.address));
        const limit = 1_000_000n;
        const used =
          limit -
          (await openDailySpendCap(join(home, "presend", "spend.sqlite"), { limit }).available());
        expect(used).toBeGreaterThanOrEqual(left);
        await stack.payments.channels?.manager().claim();
        await stack.reconcile();
        const open = await stack.records.unresolved();
        expect(
          open.filter((record) => record.payer.toLowerCase() === wallet.address.toLowerCase()),
        ).toEqual([]);
      } finally {
        release();
        await proxy.close();
      }
    },
    120_000,
  );
});
