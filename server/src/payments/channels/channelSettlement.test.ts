import { artifacts, devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// When claimed money reaches payTo, over the paid API on a payment lane of the shared world with
// the official client scheme: at shutdown (whether the drain claimed the vouchers itself or they
// were claimed before), at the start of the next server (a claim no process settled), and on the
// schedule (claims, settlement and the idle refund run by themselves, on intervals of seconds).
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 5n * price;
const usdc = chains.base.usdc.address;
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const body = JSON.stringify({ address: devnetAccounts.activeOnBase.address });
const chain = devnetClient("base", world.chains.base.rpcUrl);

/** The escrow's record of one channel: [balance, totalClaimed]. */
const escrowChannel = (channelId: string) =>
  chain.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: artifacts.PresendBatchSettlement.abi,
    functionName: "channels",
    args: [channelId as Hex],
  }) as Promise<readonly [bigint, bigint]>;
/** The escrow's totals for payTo in USDC: [totalClaimed, totalSettled]. */
const receiverTotals = () =>
  chain.readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: artifacts.PresendBatchSettlement.abi,
    functionName: "receivers",
    args: [lane.payTo.address, usdc],
  }) as Promise<readonly [bigint, bigint]>;

/** A payer of its own (funded with one deposit) paying checks through the official client scheme. */
async function channelPayer(label: string) {
  const account = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-settlement-${label}`));
  await fund(account.address, deposit);
  const scheme = new ChannelClientScheme(toClientEvmSigner(account, chain), {
    voucherSigner: toClientEvmSigner(
      privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-settlement-${label}-session`)),
    ),
    depositStrategy: () => deposit,
  });
  const client = new x402HTTPClient(new x402Client().register(network, scheme));
  const post = (stack: PaidStack, headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
  return {
    account,
    /** Pays `count` checks on `stack`; returns the channel they were paid over. */
    async pay(stack: PaidStack, count: number): Promise<string> {
      let channelId = "";
      for (let check = 1; check <= count; check += 1) {
        const challenge = await post(stack);
        const required = client.getPaymentRequiredResponse(
          (name) => challenge.headers.get(name),
          await challenge.json(),
        );
        const payload = await client.createPaymentPayload(required);
        const response = await post(stack, client.encodePaymentSignatureHeader(payload));
        expect(response.status, `check ${check}`).toBe(200);
        await client.processPaymentResult(payload, (name) => response.headers.get(name), 200);
        channelId = (payload.payload as { voucher: { channelId: string } }).voucher.channelId;
      }
      return channelId;
    },
  };
}

/** Waits until `check` holds (the schedule's jobs run on their own timers). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("claimed channel money reaches payTo", () => {
  const stacks: PaidStack[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const stack = await startPaidStack({ world, receiverAuthorizerKey, env });
    stacks.push(stack);
    return stack;
  };
  const stopAll = async () => {
    while (stacks.length > 0) await stacks.pop()?.stop();
  };
  afterEach(stopAll);

  it("at shutdown: the drain claims every voucher and settles the sum to payTo", async () => {
    const stack = await start();
    const payer = await channelPayer("drain");
    const channelId = await payer.pay(stack, 3);
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    expect((await escrowChannel(channelId))[1]).toBe(0n);
    await stopAll();
    const charged = 3n * price;
    expect(await escrowChannel(channelId)).toEqual([deposit, charged]);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + charged);
    const [claimed, settled] = await receiverTotals();
    expect(settled).toBe(claimed);
  });

  it("at shutdown: vouchers claimed before the drain (the flush claims nothing) are settled too", async () => {
    const stack = await start();
    const payer = await channelPayer("claimed-first");
    const channelId = await payer.pay(stack, 2);
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    // As the interval claim job would: claimed, and the settle job not yet run.
    const claims = (await stack.payments.channels?.manager().claim()) ?? [];
    expect(claims).toHaveLength(1);
    // The claim, sent through the recording facilitator, settled both vouchers' records before it
    // returned (not the server's reconciler, whose next run is 30 s away).
    expect(await stack.records.count("settled")).toBe(2);
    expect(await stack.records.count("pending")).toBe(0);
    const charged = 2n * price;
    expect((await escrowChannel(channelId))[1]).toBe(charged);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore);
    await stopAll();
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + charged);
    const [claimed, settled] = await receiverTotals();
    expect(settled).toBe(claimed);
  });

  it("at start: a claim no process settled goes to payTo when the next server starts", async () => {
    const first = await start();
    const payer = await channelPayer("next-start");
    await payer.pay(first, 2);
    const channels = first.payments.channels;
    if (!channels) throw new Error("channels are not offered");
    // Claimed by a manager over the bare facilitator that never settles, as a process killed
    // between its claim and its settle job leaves the escrow.
    const bare = channels.scheme.createChannelManager(first.payments.facilitator, network, usdc);
    expect(await bare.claim()).toHaveLength(1);
    const payToBefore = await first.usdcBalance(lane.payTo.address);
    const [claimedBefore, settledBefore] = await receiverTotals();
    expect(claimedBefore - settledBefore).toBe(2n * price);
    await start();
    await eventually(
      async () => (await first.usdcBalance(lane.payTo.address)) === payToBefore + 2n * price,
      "the start's settlement",
    );
    const [claimed, settled] = await receiverTotals();
    expect(settled).toBe(claimed);
  });

  it("on the schedule: claims, settles and refunds the idle channel by itself", async () => {
    const stack = await start({
      CHANNEL_CLAIM_INTERVAL_SECS: "1",
      CHANNEL_SETTLE_INTERVAL_SECS: "1",
      CHANNEL_REFUND_INTERVAL_SECS: "1",
      CHANNEL_IDLE_REFUND_SECS: "4",
    });
    const payer = await channelPayer("schedule");
    const payerBefore = await stack.usdcBalance(payer.account.address);
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    const channelId = await payer.pay(stack, 2);
    const charged = 2n * price;
    await eventually(
      async () => (await escrowChannel(channelId))[1] === charged,
      "the claim job to claim both vouchers",
    );
    await eventually(
      async () => (await stack.usdcBalance(lane.payTo.address)) === payToBefore + charged,
      "the settle job to pay payTo",
    );
    // Every record ends settled (that the claim itself settles them is shown at shutdown above).
    await eventually(
      async () => (await stack.records.count("settled")) === 2,
      "the records to be settled",
    );
    expect(await stack.records.count("pending")).toBe(0);
    // Idle for the refund period, the rest goes back to the payer and the channel is forgotten.
    await eventually(
      async () => (await stack.usdcBalance(payer.account.address)) === payerBefore - charged,
      "the refund job to return the rest",
    );
    expect(await escrowChannel(channelId)).toEqual([charged, charged]);
    await eventually(
      async () => ((await stack.payments.channels?.store.list()) ?? []).length === 0,
      "the refunded channel to leave the store",
    );
  });
  it("on the schedule: a channel used within the idle period keeps its deposit for the next check", async () => {
    // The refund job runs every second, the idle period is an hour: however often it runs, a
    // channel its payer used a few seconds ago is not refunded (its next check would need a new
    // deposit, and its payer's gas).
    const stack = await start({
      CHANNEL_CLAIM_INTERVAL_SECS: "1",
      CHANNEL_SETTLE_INTERVAL_SECS: "1",
      CHANNEL_REFUND_INTERVAL_SECS: "1",
      CHANNEL_IDLE_REFUND_SECS: "3600",
    });
    const payer = await channelPayer("in-use");
    const channelId = await payer.pay(stack, 1);
    await eventually(
      async () => (await escrowChannel(channelId))[1] === price,
      "the claim job to claim the voucher",
    );
    // Several refund runs, each with the channel idle for seconds, not for the hour.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await escrowChannel(channelId)).toEqual([deposit, price]);
    expect((await stack.payments.channels?.store.get(channelId))?.balance).toBe(String(deposit));
  });
});
