import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PresendClient,
} from "@presend/client";
import { devnetAccounts, devnetPrivateKey, usdcBalanceOnBase } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// The operator releases a new price (routePrices) while payers are mid-payment or hold a channel
// opened at the old one: a payment signed at the old price reaches the server at the new one,
// raised and lowered. It is refused before anything is charged and the payer is told the terms
// changed (was "HTTP 402", or x402's "No matching payment requirements"); an open channel pays
// the new price from the deposit it holds; every charge is a delivered report.
const { world, lane, fund } = sharedPaymentWorld();
const channelPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-price-channel`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-price-session`));
const exactPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-price-exact`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;
const usdc = usdcBalanceOnBase(world.chains.base);
const publicUrl = "http://presend.test";

describe("price changed", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-price-"));
  let stack: PaidStack | undefined;
  let between: (() => Promise<void>) | null = null;
  const viaCurrent = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const answer = await (stack as PaidStack).app.request(request);
    if (answer.status === 402 && between && request.method === "POST") {
      const hook = between;
      between = null;
      await hook();
    }
    return answer;
  };
  const at = async (check: string) => {
    await stack?.stop();
    stack = await startPaidStack({
      world,
      dataDir,
      publicUrl,
      receiverAuthorizerKey,
      prices: { "/check": check, "/deep": "50000" },
    });
  };
  const clientOf = (
    account: ReturnType<typeof privateKeyToAccount>,
    channel: boolean,
  ): PresendClient =>
    createPresendClient({
      url: publicUrl,
      signer: {
        address: account.address,
        signTypedData: (typedData) => account.signTypedData(typedData as never),
        signMessage: (args) => account.signMessage(args),
      },
      pinStore: createMemoryPinStore(),
      spendCap: createSessionSpendCap(1_000_000n),
      fetch: viaCurrent,
      ...(channel && { channel: { voucherSigner: toClientEvmSigner(session) } }),
    });
  const overChannel = clientOf(channelPayer, true);
  const onItsOwn = clientOf(exactPayer, false);
  let exactPayerAtStart = 0n;

  beforeAll(async () => {
    await fund(channelPayer.address, 100n * 10_000n);
    await fund(exactPayer.address, 100n * 10_000n);
    await at("10000");
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("pays a first check over a channel at $0.01", async () => {
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
      settlement: { viaChannel: true },
    });
    exactPayerAtStart = await usdc(exactPayer.address);
  });

  it("a price raised between an exact payer's challenge and payment: refused, nothing charged, said so", async () => {
    between = () => at("20000");
    const result = await onItsOwn.check({ address: target });
    expect(result).toMatchObject({
      type: "not_charged",
      code: "terms_changed",
      charged: false,
      message:
        "The server's terms changed after its offer (the price is now $0.02, not $0.01): this payment was refused and nothing was charged. Check again to see and pay the current terms.",
    });
    expect(await usdc(exactPayer.address)).toBe(exactPayerAtStart);
    // Checked again, the new price is paid once.
    expect(await onItsOwn.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
    });
    expect(await usdc(exactPayer.address)).toBe(exactPayerAtStart - 20_000n);
  });

  it("the open channel pays the raised price from the deposit it holds", async () => {
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
      settlement: { viaChannel: true, amount: "20000" },
    });
  });

  it("a price lowered between a channel payer's voucher and its payment: refused, nothing charged, said so", async () => {
    between = () => at("5000");
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "not_charged",
      code: "terms_changed",
      charged: false,
      message:
        "The server's terms changed after its offer (the price is now $0.005, not $0.02): this payment was refused and nothing was charged. Check again to see and pay the current terms.",
    });
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
      settlement: { viaChannel: true, amount: "5000" },
    });
  });

  it("every check charged is one report delivered, at the price it was offered", async () => {
    await stack?.payments.channels?.claim();
    await stack?.reconcile();
    expect(await stack?.records.count("pending")).toBe(0);
    expect(await stack?.records.count("settled")).toBe(4);
    expect(await stack?.records.count()).toBe(4);
  });
});
