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
import { routePrices } from "@presend/shared/pricing/routePrices";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/loadConfig";
import type { Engine } from "../../engine/createEngine";
import { worldConfig } from "../../localDemo/worldConfig";
import { type RunningServer, startServer } from "../../startServer";

// A rolling restart: the server is stopped as SIGTERM stops it (startServer's stop: drain,
// channels flushed) while two paid checks are in flight, one over a channel and one `exact`.
// Both payers get their report; the drain claims the voucher and sweeps it to payTo; the next
// server on the same data takes the channel's next voucher, and every charge is reconciled with
// the chain: charged = reports delivered, nothing twice.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const channelPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-rolling-channel`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-rolling-session`));
const exactPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-rolling-exact`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;
const usdc = usdcBalanceOnBase(world.chains.base);

describe("a rolling restart while paid checks are in flight", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-rolling-"));
  let server: RunningServer | undefined;
  /** Resolves the engine's held checks (the requests stay in flight until then). */
  let engineEntered: () => void = () => {};
  let holding = false;
  const slowEngine = (engine: Engine): Engine => ({
    async check(input) {
      if (holding) {
        engineEntered();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      return engine.check(input);
    },
    deep: (input) => engine.deep(input),
  });
  const start = async () =>
    startServer(
      worldConfig(
        loadConfig({
          PORT: "0",
          DATA_DIR: dataDir,
          CACHE_TTL_MS: "0",
          RECEIVER_AUTHORIZER_KEY: receiverAuthorizerKey,
          DRAIN_TIMEOUT_MS: "20000",
        }),
        world,
      ),
      { wrapEngine: slowEngine },
    );
  const url = "http://presend.rolling.test";
  const viaCurrent = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url);
    return fetch(new Request(`${server?.url}${path.pathname}${path.search}`, request));
  };
  const clientOf = (
    account: ReturnType<typeof privateKeyToAccount>,
    channel: boolean,
  ): PresendClient =>
    createPresendClient({
      url,
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
  let payToAtStart: bigint;
  let channelPayerAtStart: bigint;
  let exactPayerAtStart: bigint;

  beforeAll(async () => {
    await fund(channelPayer.address, 100n * price);
    await fund(exactPayer.address, 100n * price);
    server = await start();
    payToAtStart = await usdc(lane.payTo.address);
    channelPayerAtStart = await usdc(channelPayer.address);
    exactPayerAtStart = await usdc(exactPayer.address);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("opens a channel with a first check", async () => {
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
      settlement: { viaChannel: true },
    });
  });

  it("a stop during two paid checks answers both with their reports, then claims and settles", async () => {
    holding = true;
    let entered = 0;
    const bothEntered = new Promise<void>((resolve) => {
      engineEntered = () => {
        entered += 1;
        if (entered === 2) resolve();
      };
    });
    const checks = Promise.all([
      overChannel.check({ address: target }),
      onItsOwn.check({ address: target }),
    ]);
    await bothEntered;
    const stopping = server?.stop();
    const [viaChannel, viaExact] = await checks;
    await stopping;
    holding = false;
    expect(viaChannel).toMatchObject({ type: "report", charged: true, signature: "verified" });
    expect(viaExact).toMatchObject({ type: "report", charged: true, signature: "verified" });
    // The drain claimed both vouchers and swept them, beside the exact payment.
    expect(await usdc(lane.payTo.address)).toBe(payToAtStart + 3n * price);
    expect(await usdc(exactPayer.address)).toBe(exactPayerAtStart - price);
  });

  it("the next server takes the channel's next voucher; every charge is one delivered report", async () => {
    server = await start();
    expect(await overChannel.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
      settlement: { viaChannel: true },
    });
    await server.payments.channels?.claim();
    await server.reconcile();
    expect(await server.records.count("pending")).toBe(0);
    expect(await server.records.count("settled")).toBe(4);
    // One deposit of ten checks, three of them charged (the rest stays for the next ones).
    expect(await usdc(channelPayer.address)).toBe(channelPayerAtStart - 10n * price);
  });
});
