import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type SpawnedService, spawnService } from "../localServices/spawnService";
import { exactPayments } from "./testing/exactPayments";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";
import { startTamperingProxy, type TamperingProxy } from "./testing/startTamperingProxy";

// This file's payer, facilitator key and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const presendBin = resolve(import.meta.dirname, "../../bin/presend.js");
// Short deadlines so the test does not wait out the production ones (10 s and 20 s).
const verifyTimeoutMs = 4_000;
const settleTimeoutMs = 8_000;

// `presend facilitator` as the fleet runs it, a process of its own, that stops answering without
// closing anything (SIGSTOP), as a service behind a network partition or stuck in a pause does.
// A proxy between the API and it chooses the moment: before a verification, or as a settlement
// reaches it.
describe("a remote facilitator that stops answering", () => {
  let facilitator: SpawnedService;
  let proxy: TamperingProxy;
  let stack: PaidStack;
  let frozen = false;
  const freeze = () => {
    facilitator.kill("SIGSTOP");
    frozen = true;
  };
  const thaw = () => {
    if (frozen) facilitator.kill("SIGCONT");
    frozen = false;
  };
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: target,
    chain: "base",
  });

  beforeAll(async () => {
    const token = randomBytes(32).toString("hex");
    const url = `http://127.0.0.1:${await freePort()}`;
    facilitator = await spawnService({
      name: "presend facilitator",
      command: process.execPath,
      args: [presendBin, "facilitator"],
      env: {
        ...process.env,
        PORT: new URL(url).port,
        FACILITATOR_PRIVATE_KEY: shared.world.accounts.facilitator.privateKey,
        FACILITATOR_AUTH_TOKEN: token,
        FACILITATOR_JOURNAL_FILE: join(mkdtempSync(join(tmpdir(), "presend-hang-")), "j.json"),
        RPC_URLS_BASE: shared.world.chains.base.rpcUrl,
        LOG_LEVEL: "warn",
      },
      ready: async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true,
      timeoutMs: 60_000,
    });
    proxy = await startTamperingProxy(url);
    stack = await startPaidStack({
      world: shared.world,
      facilitator: { url: proxy.url, auth: { type: "bearer", token } },
      env: {
        FACILITATOR_VERIFY_TIMEOUT_MS: String(verifyTimeoutMs),
        FACILITATOR_SETTLE_TIMEOUT_MS: String(settleTimeoutMs),
      },
    });
  }, 120_000);
  afterEach(() => {
    thaw();
    proxy.set(null);
  });
  afterAll(async () => {
    thaw();
    await stack?.stop();
    await proxy?.close();
    await facilitator?.stop();
  });

  it("silent before the verification: 503 facilitator_unavailable once its deadline passes, nothing charged; the same authorization pays once it answers", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    freeze();
    const started = performance.now();
    const answer = await post(headers);
    const waited = performance.now() - started;
    expect(answer.status).toBe(503);
    const { error } = await answer.json();
    expect(error.code).toBe("facilitator_unavailable");
    expect(error.message).toContain("Nothing was charged");
    // A browser page that paid can read it.
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    // Not the official client's 90 s: the verification's own deadline, and not much more.
    expect(waited).toBeGreaterThanOrEqual(verifyTimeoutMs - 50);
    expect(waited).toBeLessThan(verifyTimeoutMs + 10_000);
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    thaw();
    const again = await post(headers);
    expect(again.status).toBe(200);
    expect(await used(nonce)).toBe(true);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
  }, 90_000);

  it("the verification's answer lost on the way: 503 facilitator_unavailable at once, nothing charged", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    proxy.set({
      after: async (request, upstream) => (request.path === "/verify" ? "drop" : upstream),
    });
    const answer = await post(headers);
    expect(answer.status).toBe(503);
    expect((await answer.json()).error.code).toBe("facilitator_unavailable");
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
  }, 60_000);

  it("the settlement's answer lost on the way after it settled: the report with its settlement, charged once, and none of the failed answer's headers on it", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    proxy.set({
      after: async (request, upstream) => (request.path === "/settle" ? "drop" : upstream),
    });
    const answer = await post(headers);
    expect(answer.status).toBe(200);
    expect(await used(nonce)).toBe(true);
    const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    expect(settlement.success).toBe(true);
    expect(settlement.payer?.toLowerCase()).toBe(payer.address.toLowerCase());
    expect((await answer.json()).address).toBe(target);
    // The report replaces the 402 the lost answer first made: its 14 KB challenge is not carried
    // over, which would put the answer past the 16 KB of headers Node's fetch reads.
    expect(answer.headers.get("payment-required")).toBeNull();
    const headerBytes = [...answer.headers].reduce(
      (sum, [name, value]) => sum + name.length + value.length + 4,
      0,
    );
    expect(headerBytes).toBeLessThan(8 * 1024);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
  }, 60_000);

  it("silent as the settlement reaches it, settling once it wakes: 502 settlement_unknown naming the receipt, then the report from /receipts, charged once", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    proxy.set({
      before: (request) => {
        if (request.path === "/settle") freeze();
        return undefined;
      },
    });
    const answer = await post(headers);
    expect(answer.status).toBe(502);
    const body = await answer.json();
    const receiptPath = `/receipts/${payer.address.toLowerCase()}/${nonce}`;
    expect(body.error.code).toBe("settlement_unknown");
    expect(answer.headers.get("presend-receipt")).toBe(`${stack.publicUrl}${receiptPath}`);
    // Frozen before it could send anything: the chain shows no charge yet.
    expect(await used(nonce)).toBe(false);
    const key = { payer: payer.address, nonce };
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "unknown" });

    // It wakes and settles the request it was holding: the chain shows the charge.
    thaw();
    await expect.poll(() => used(nonce), { timeout: 20_000 }).toBe(true);
    expect(await stack.reconcile()).toMatchObject({ settled: 1 });
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "settled" });
    const signature = await payer.signMessage({ message: receiptMessage(nonce) });
    const fetched = await stack.app.request(`${receiptPath}?signature=${signature}`);
    expect(fetched.status).toBe(200);
    const receipt = await fetched.json();
    expect(receipt).toMatchObject({ nonce, route: "/check", amount: "10000" });
    expect(receipt.report).toMatchObject({ address: target });
    expect(before - (await stack.usdcBalance(payer.address))).toBe(10_000n);
  }, 90_000);
});
