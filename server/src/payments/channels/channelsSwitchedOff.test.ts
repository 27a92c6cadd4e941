import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PresendSigner,
} from "@presend/client";
import { devnetAccounts, devnetPrivateKey, usdcBalanceOnBase } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { type ServerProcess, startServerProcess } from "../testing/startServerProcess";

// The operator turns channels off (CHANNELS=off) while a payer holds an open channel with most
// of its deposit left and vouchers the server served but never claimed (the server before it
// died without a drain). The server after it offers `exact` only, yet still claims what it
// served and sends the payer the rest of the deposit, on its own; @presend/client pays the next
// check `exact` within its spend cap, and its close says what happened.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-switched-off-payer`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-switched-off-session`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;
const usdc = usdcBalanceOnBase(world.chains.base);
/** Both servers publish this URL; the client's requests go to whichever runs. */
const publicUrl = "http://presend.test";

describe("channels switched off while a payer holds an open channel", { timeout: 150_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-channels-off-"));
  let first: ServerProcess;
  let second: PaidStack | undefined;
  const viaCurrent = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (second) return second.app.request(request);
    const url = new URL(request.url);
    return fetch(new Request(`${first.url}${url.pathname}${url.search}`, request));
  };
  const signer: PresendSigner = {
    address: wallet.address,
    signTypedData: (typedData) => wallet.signTypedData(typedData as never),
    signMessage: (args) => wallet.signMessage(args),
  };
  const cap = createSessionSpendCap(1_000_000n);
  const client = createPresendClient({
    url: publicUrl,
    signer,
    pinStore: createMemoryPinStore(),
    spendCap: cap,
    fetch: viaCurrent,
    channel: { voucherSigner: toClientEvmSigner(session) },
  });
  let walletAtStart: bigint;
  let payToAtStart: bigint;

  beforeAll(async () => {
    await fund(wallet.address, 100n * price);
    first = await startServerProcess({
      world,
      dataDir,
      receiverAuthorizerKey,
      settings: { PUBLIC_URL: publicUrl },
    });
    walletAtStart = await usdc(wallet.address);
    payToAtStart = await usdc(lane.payTo.address);
  });
  afterAll(async () => {
    await first?.kill();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("pays two checks over a channel (a deposit of ten checks), then the server dies undrained", async () => {
    for (let check = 1; check <= 2; check += 1) {
      const result = await client.check({ address: target });
      expect(result, `check ${check}`).toMatchObject({
        type: "report",
        charged: true,
        settlement: { viaChannel: true },
      });
    }
    expect(await usdc(wallet.address)).toBe(walletAtStart - 10n * price);
    await first.kill();
  });

  it("the server restarted with CHANNELS=off offers exact only, claims the served vouchers and refunds the rest", async () => {
    second = await startPaidStack({
      world,
      dataDir,
      publicUrl,
      receiverAuthorizerKey,
      env: { CHANNELS: "off", CHANNEL_REFUND_INTERVAL_SECS: "1", CHANNEL_CLAIM_INTERVAL_SECS: "1" },
    });
    const challenge = await second.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    expect(challenge.status).toBe(402);
    const accepts = decodePaymentRequiredHeader(
      challenge.headers.get("payment-required") ?? "",
    ).accepts;
    expect(accepts.map((accept) => accept.scheme)).toEqual(["exact"]);
    // The two checks served are paid to payTo, the other eight go back to the payer.
    await expect
      .poll(() => usdc(lane.payTo.address), {
        timeout: 20_000,
        interval: 250,
        message: "the served vouchers reach payTo",
      })
      .toBe(payToAtStart + 2n * price);
    await expect
      .poll(() => usdc(wallet.address), {
        timeout: 20_000,
        interval: 250,
        message: "the rest of the deposit is back with the payer",
      })
      .toBe(walletAtStart - 2n * price);
    await second.reconcile();
    expect(await second.records.count("pending")).toBe(0);
    expect(await second.records.count("settled")).toBe(2);
  });

  it("the client pays the next check exact, and its close says no channel is offered", async () => {
    const result = await client.check({ address: target });
    expect(result).toMatchObject({ type: "report", charged: true });
    if (result.type === "report") expect(result.settlement.viaChannel).toBeFalsy();
    expect(await usdc(wallet.address)).toBe(walletAtStart - 3n * price);
    const closed = await client.closeChannel();
    expect(closed).toMatchObject({ type: "failed" });
    if (closed.type === "failed")
      expect(closed.message).toMatch(/no longer offers payment channels/);
  });
});
