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

// The operator moves PAY_TO to a new address while a payer holds a channel to the old one, with
// vouchers the server served and never claimed (it died without a drain). The next server pays
// the next check to the new payee only (@presend/client opens a channel to it), and still claims
// the old channel's vouchers, sweeps them to the old payTo (the escrow pays a channel's claims
// to the receiver it names) and refunds the rest of the old deposit to the payer.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-payto-moved-payer`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-payto-moved-session`));
const newPayTo = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-payto-moved-new`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;
const usdc = usdcBalanceOnBase(world.chains.base);
const publicUrl = "http://presend.test";

describe("PAY_TO moved while a payer holds a channel to the old payee", {
  timeout: 150_000,
}, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-payto-moved-"));
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
  const client = createPresendClient({
    url: publicUrl,
    signer,
    pinStore: createMemoryPinStore(),
    spendCap: createSessionSpendCap(1_000_000n),
    fetch: viaCurrent,
    channel: { voucherSigner: toClientEvmSigner(session) },
  });
  let walletAtStart: bigint;
  let oldPayToAtStart: bigint;

  beforeAll(async () => {
    await fund(wallet.address, 100n * price);
    first = await startServerProcess({ world, dataDir, receiverAuthorizerKey });
    walletAtStart = await usdc(wallet.address);
    oldPayToAtStart = await usdc(lane.payTo.address);
  });
  afterAll(async () => {
    await first?.kill();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("pays two checks over a channel to the old payee, then the server dies undrained", async () => {
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

  it("the next server offers the new payee and the client pays it through a new channel", async () => {
    second = await startPaidStack({
      world,
      dataDir,
      publicUrl,
      receiverAuthorizerKey,
      env: {
        PAY_TO: newPayTo.address,
        CHANNEL_CLAIM_INTERVAL_SECS: "1",
        CHANNEL_SETTLE_INTERVAL_SECS: "1",
        CHANNEL_REFUND_INTERVAL_SECS: "1",
        CHANNEL_IDLE_REFUND_SECS: "1",
      },
    });
    const challenge = await second.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    const accepts = decodePaymentRequiredHeader(
      challenge.headers.get("payment-required") ?? "",
    ).accepts;
    expect(accepts.map((accept) => accept.payTo)).toEqual([newPayTo.address, newPayTo.address]);
    const result = await client.check({ address: target });
    expect(result).toMatchObject({ type: "report", charged: true });
    // A new deposit to the new payee; the old channel's deposit is still in the escrow.
    expect(await usdc(wallet.address)).toBe(walletAtStart - 20n * price);
  });

  it("the old channel's two checks reach the old payTo and the rest of its deposit the payer", async () => {
    await expect
      .poll(() => usdc(lane.payTo.address), {
        timeout: 20_000,
        interval: 250,
        message: "the old channel's claims are swept to the payTo it named",
      })
      .toBe(oldPayToAtStart + 2n * price);
    // Both channels idle past CHANNEL_IDLE_REFUND_SECS: the payer ends charged three checks.
    await expect
      .poll(() => usdc(wallet.address), {
        timeout: 20_000,
        interval: 250,
        message: "the rest of both deposits is back with the payer",
      })
      .toBe(walletAtStart - 3n * price);
    await expect
      .poll(() => usdc(newPayTo.address), {
        timeout: 20_000,
        interval: 250,
        message: "the new channel's check reaches the new payTo",
      })
      .toBe(price);
    await second?.reconcile();
    expect(await second?.records.count("pending")).toBe(0);
  });
});
