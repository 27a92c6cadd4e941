import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { devnetClient, devnetPrivateKey } from "@presend/devnet";
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

/**
 * One `presend` process interrupted as a user's Ctrl-C does: `signal` is sent once `when`
 * resolves (a request of the run's has reached the point the test holds it at).
 */
const interruptedPresend = (
  argv: string[],
  env: Record<string, string>,
  when: Promise<void>,
  signal: NodeJS.Signals = "SIGINT",
) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    void when.then(() => child.kill(signal));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });

// `presend` processes started at once by one user (an agent framework, a shell script's `&`),
// sharing one config directory: its pins.json, its channel session key, salt and state. Real
// processes against the paid API on a real port, on a payment lane of the shared world.
describe("presend runs started at once as processes, sharing one config directory", () => {
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

  it("eight first checks at once: each paid once over one deposit within the spend cap, both origins pinned, the rest back on close and to the day's cap", async () => {
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-processes-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const home = mkdtempSync(join(tmpdir(), "presend-processes-"));
    dirs.push(home);
    const port = new URL(server.url).port;
    // Two origins of the one server: each run pins the origin it was given.
    const origins = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
    const env = (index: number) => ({
      PRESEND_URL: origins[index % origins.length] ?? "",
      PRESEND_PRIVATE_KEY: walletKey,
      XDG_CONFIG_HOME: home,
      // Room for the first deposit and, only once the close has given back the unused part of
      // it, a second one.
      PRESEND_DAILY_CAP: "0.19",
    });
    const usedToday = async () =>
      190_000n -
      (await openDailySpendCap(join(home, "presend", "spend.sqlite"), {
        limit: 190_000n,
      }).available());
    const chain = devnetClient("base", world.chains.base.rpcUrl);
    const transactions = () => chain.getTransactionCount({ address: lane.facilitator.address });
    const txBefore = await transactions();
    const before = await stack.usdcBalance(wallet.address);
    const targets = Array.from(
      { length: 8 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );

    const runs = await Promise.all(
      targets.map((target, index) => presend(["check", target], env(index))),
    );

    const nonces = new Set<string>();
    runs.forEach((run, index) => {
      expect(run.code, run.stderr).toBe(exitCodes.ok);
      expect(run.stdout).toContain(targets[index]);
      const receipt = /over the payment channel .*; receipt (0x[0-9a-f]{64})/.exec(run.stderr);
      expect(receipt, run.stderr).not.toBeNull();
      nonces.add(receipt?.[1] ?? "");
    });
    expect(nonces.size).toBe(targets.length);
    // One deposit (the default, ten checks: the default spend cap) paid all eight.
    expect(await transactions()).toBe(txBefore + 1);
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(10n * price);
    const pins = JSON.parse(readFileSync(join(home, "presend", "pins.json"), "utf8"));
    expect(Object.keys(pins.servers).sort()).toEqual([...origins].sort());

    // The whole deposit counts against the day until the channel is closed.
    expect(await usedToday()).toBe(10n * price);

    const closed = await presend(["close"], env(0));
    expect(closed.code, closed.stderr).toBe(exitCodes.ok);
    // The payer spent the eight checks, each charged once and each named by its receipt.
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(8n * price);
    // The close, a run of its own, gave the day's cap back what came back of the deposit the
    // check runs made.
    expect(await usedToday()).toBe(8n * price);
    await stack.reconcile();
    for (const nonce of nonces) {
      expect(await stack.records.byAuthorization({ payer: wallet.address, nonce })).toMatchObject({
        status: "settled",
        amount: String(price),
      });
    }

    // A second deposit of ten checks fits the day only with that credit (0.08 + 0.10 <= 0.19).
    const next = await presend(["check", privateKeyToAccount(generatePrivateKey()).address], {
      ...env(0),
      PRESEND_CHANNEL_DEPOSIT: "0.10",
    });
    expect(next.code, next.stderr).toBe(exitCodes.ok);
    expect(await usedToday()).toBe(18n * price);
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(18n * price);
    expect((await presend(["close"], env(1))).code).toBe(exitCodes.ok);
    expect(await usedToday()).toBe(9n * price);
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(9n * price);
  }, 240_000);

  it("eight checks at once against a daily cap of three: three paid, five refused before signing, the day's count kept for the next run", async () => {
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-daily-cap-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const home = mkdtempSync(join(tmpdir(), "presend-daily-cap-"));
    dirs.push(home);
    // Each check paid on its own (exact): a run's own cap would let every one of them pass.
    const env = {
      PRESEND_URL: server.url,
      PRESEND_PRIVATE_KEY: walletKey,
      XDG_CONFIG_HOME: home,
      PRESEND_DAILY_CAP: "0.03",
    };
    const before = await stack.usdcBalance(wallet.address);
    const targets = Array.from(
      { length: 8 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );

    const runs = await Promise.all(
      targets.map((target) => presend(["check", target, "--no-channel"], env)),
    );

    const paid = runs.filter((run) => run.code === exitCodes.ok);
    const refused = runs.filter((run) => run.code !== exitCodes.ok);
    expect(paid, runs.map((run) => run.stderr).join("\n")).toHaveLength(3);
    for (const run of refused) {
      expect(run.code, run.stderr).toBe(exitCodes.refusedToPay);
      expect(run.stderr).toContain(
        "Daily spend cap reached: $0.03 of $0.03 in USDC used today (UTC)",
      );
      expect(run.stderr).toContain("PRESEND_DAILY_CAP");
      expect(run.stderr).toContain("charged: no");
    }
    // The chain agrees: three checks charged, the refused runs signed nothing.
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(3n * price);
    await stack.reconcile();
    for (const run of paid) {
      const settlement = /settlement (0x[0-9a-f]{64})/.exec(run.stderr)?.[1];
      expect(settlement, run.stderr).toBeDefined();
    }
    // A later run the same day is refused too: the count is kept in the config directory. (Of
    // another address: one already paid for would be read back signed in, free.)
    const another = privateKeyToAccount(generatePrivateKey()).address;
    const later = await presend(["check", another, "--no-channel"], env);
    expect(later.code, later.stderr).toBe(exitCodes.refusedToPay);
    expect(later.stderr).toContain("Daily spend cap reached");
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(3n * price);
  }, 240_000);
  it("nine checks at once as the channel runs out: the deposits the day's cap holds pay six, each once; three refused before signing, charged no; the chain and the records agree", async () => {
    // A deposit of three checks, a day's cap of eight: the first deposit and one top-up fit, a
    // third deposit does not. The runs share the channel's state, lock and the day's ledger.
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-runs-out-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const home = mkdtempSync(join(tmpdir(), "presend-runs-out-"));
    dirs.push(home);
    const env = {
      PRESEND_URL: server.url,
      PRESEND_PRIVATE_KEY: walletKey,
      XDG_CONFIG_HOME: home,
      PRESEND_CHANNEL_DEPOSIT: "0.03",
      PRESEND_DAILY_CAP: "0.08",
    };
    const usedToday = async () =>
      80_000n -
      (await openDailySpendCap(join(home, "presend", "spend.sqlite"), {
        limit: 80_000n,
      }).available());
    const before = await stack.usdcBalance(wallet.address);
    const targets = Array.from(
      { length: 9 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );

    const runs = await Promise.all(targets.map((target) => presend(["check", target], env)));

    const paid = runs.filter((run) => run.code === exitCodes.ok);
    const nonces = new Set<string>();
    for (const run of paid) {
      const receipt = /over the payment channel .*; receipt (0x[0-9a-f]{64})/.exec(run.stderr);
      expect(receipt, run.stderr).not.toBeNull();
      nonces.add(receipt?.[1] ?? "");
    }
    expect(paid, runs.map((run) => run.stderr).join("\n")).toHaveLength(6);
    expect(nonces.size).toBe(6);
    for (const run of runs.filter((each) => each.code !== exitCodes.ok)) {
      expect(run.code, run.stderr).toBe(exitCodes.refusedToPay);
      expect(run.stderr).toContain("charged: no");
    }
    // Two deposits left the wallet and the day's ledger holds them, within the cap.
    expect(before - (await stack.usdcBalance(wallet.address))).toBe(6n * price);
    expect(await usedToday()).toBe(6n * price);
    await stack.payments.channels?.manager().claim();
    await stack.reconcile();
    for (const nonce of nonces) {
      expect(await stack.records.byAuthorization({ payer: wallet.address, nonce })).toMatchObject({
        status: "settled",
        amount: String(price),
      });
    }
    const open = await stack.records.unresolved();
    expect(
      open.filter((record) => record.payer.toLowerCase() === wallet.address.toLowerCase()),
    ).toEqual([]);
  }, 240_000);
});

// A user's Ctrl-C (or a script's timeout) while a paid check runs: a real process, a real signal,
// the paid API behind a proxy that holds the run's request at the moment the test interrupts it.
describe("presend check interrupted, or its output cut off, while it runs", () => {
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

  /** A payer with USDC, its own config directory, and a proxy in front of the API. */
  const setUp = async (name: string) => {
    const walletKey = devnetPrivateKey(`lane-${lane.index}-${name}`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 5n * routePrices.check);
    const home = mkdtempSync(join(tmpdir(), "presend-interrupted-"));
    dirs.push(home);
    const proxy = await startTamperingProxy(server.url);
    const env = { PRESEND_URL: proxy.url, PRESEND_PRIVATE_KEY: walletKey, XDG_CONFIG_HOME: home };
    return { wallet, env, proxy };
  };

  it("after the payment was sent: charged unknown, the receipt id and the retry named, and that id fetches the report, charged once", async () => {
    const { wallet, env, proxy } = await setUp("cli-interrupted-payer");
    // The server has settled the payment; its answer is held until the run was interrupted.
    const { reached: paidReached, release } = proxy.holdPaidAnswers();
    const target = privateKeyToAccount(generatePrivateKey()).address;
    const before = await stack.usdcBalance(wallet.address);
    try {
      const run = await interruptedPresend(["check", target, "--no-channel"], env, paidReached);
      expect(run.code, run.stderr).toBe(exitCodes.chargedNoReport);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("presend: interrupted while paying");
      expect(run.stderr).toContain("presend: charged: unknown");
      const nonce = /presend receipt (0x[0-9a-f]{64})/.exec(run.stderr)?.[1];
      expect(nonce, run.stderr).toBeDefined();
      expect(run.stderr).toMatch(/--payment-id pay_[0-9a-f]+/);
      release();
      proxy.set(null);

      const fetched = await presend(["receipt", nonce ?? ""], env);
      expect(fetched.code, fetched.stderr).toBe(exitCodes.ok);
      expect(fetched.stdout).toContain(target);
      expect(before - (await stack.usdcBalance(wallet.address))).toBe(routePrices.check);
    } finally {
      release();
      await proxy.close();
    }
  }, 120_000);

  it("a reader that closed stdout before the answer: the run's own exit code, no EPIPE crash, the receipt still on stderr", async () => {
    const { env, proxy } = await setUp("cli-closed-stdout-payer");
    await proxy.close();
    const direct = { ...env, PRESEND_URL: server.url };
    /** A run whose stdout reader is gone at once, as `presend … | true` leaves it. */
    const cutOff = (argv: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...argv], {
          env: { ...process.env, ...direct },
        });
        child.stdout.destroy();
        let stderr = "";
        child.stderr.on("data", (chunk) => {
          stderr += chunk;
        });
        child.on("close", (code) => resolve({ code, stderr }));
      });
    const target = privateKeyToAccount(generatePrivateKey()).address;
    const validated = await cutOff(["validate", target]);
    expect(validated.code, validated.stderr).toBe(exitCodes.ok);
    expect(validated.stderr).toBe("");
    const checked = await cutOff(["check", target, "--no-channel"]);
    expect(checked.code, checked.stderr).toBe(exitCodes.ok);
    expect(checked.stderr).toMatch(/settlement 0x[0-9a-f]{64}/);
    expect(checked.stderr).not.toMatch(/EPIPE|Unhandled/);
  }, 120_000);

  it("before anything was signed: charged no, ended as the signal ends a run, nothing paid", async () => {
    const { wallet, env, proxy } = await setUp("cli-interrupted-early-payer");
    let reached = () => {};
    const challengeReached = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // The unpaid challenge is held: the run has signed nothing when it is interrupted.
    proxy.set({
      after: async (request, upstream) => {
        if (request.path !== "/check" || request.headers.has("payment-signature")) return upstream;
        reached();
        return new Promise<Response>(() => {});
      },
    });
    const before = await stack.usdcBalance(wallet.address);
    try {
      const run = await interruptedPresend(
        ["check", privateKeyToAccount(generatePrivateKey()).address, "--no-channel"],
        env,
        challengeReached,
        "SIGTERM",
      );
      expect(run.code, run.stderr).toBe(143);
      expect(run.stderr).toContain("presend: interrupted before paying\npresend: charged: no");
      expect(proxy.paymentsForwarded()).toBe(0);
      expect(await stack.usdcBalance(wallet.address)).toBe(before);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
