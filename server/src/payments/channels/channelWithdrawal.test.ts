import {
  artifacts,
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  startWorld,
  type World,
} from "@presend/devnet";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import {
  BATCH_SETTLEMENT_ADDRESS,
  type BatchSettlementVoucherPayload,
  toClientEvmSigner,
} from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { createWalletClient, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptLocationHeader } from "../resourceServer/paymentLedger";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { maxClaimIntervalSecs } from "./channelSchedule";
import { channelWithdrawDelaySeconds } from "./createChannels";
import { channelWithdrawalPending } from "./refuseWithdrawingChannels";

// Payers who act on the escrow from their own wallets while their channels are in use: one starts
// the timed withdrawal and keeps paying, one withdraws while the server's claims were not running,
// one never touches the escrow. Official client scheme, paid API, in-process facilitator. A world
// of its own: the test moves its Base chain's clock past the withdraw delay, which every other
// file would feel. Claims run when the test says (channels.claim, the claim job's own run).
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 10n * price;
const body = { address: devnetAccounts.activeOnBase.address };
const abi = artifacts.PresendBatchSettlement.abi;

/** A payer with its own wallet on the local Base, paying through the official client scheme. */
function channelPayer(world: World) {
  const account = privateKeyToAccount(generatePrivateKey());
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  const scheme = new ChannelClientScheme(toClientEvmSigner(account, chain), {
    voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
    depositStrategy: () => deposit,
  });
  const wallet = createWalletClient({
    account,
    chain: chain.chain,
    transport: http(world.chains.base.rpcUrl),
  });
  return {
    account,
    client: new x402HTTPClient(new x402Client().register(network, scheme)),
    config: null as BatchSettlementVoucherPayload["channelConfig"] | null,
    /** Calls the escrow from the payer's wallet, as a payer leaving without presend would. */
    async escrow(functionName: "initiateWithdraw" | "finalizeWithdraw", amount?: bigint) {
      if (this.config === null) throw new Error("no channel opened");
      const config = { ...this.config, withdrawDelay: Number(this.config.withdrawDelay) };
      const hash = await wallet.writeContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi,
        functionName,
        args: amount === undefined ? [config] : [config, amount],
      } as never);
      const receipt = await chain.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe("success");
    },
  };
}
type ChannelPayer = ReturnType<typeof channelPayer>;

describe("a payer acting on the escrow directly while its channel is in use", () => {
  let world: World;
  let stack: PaidStack;
  let leaver: ChannelPayer;
  let absent: ChannelPayer;
  let honest: ChannelPayer;
  let payToAtStart: bigint;
  const served: { payer: ChannelPayer; location: string }[] = [];
  const chain = () => devnetClient("base", world.chains.base.rpcUrl);
  const escrow = async (payer: ChannelPayer) => {
    const id = await channelIdOf(payer);
    const [balance, totalClaimed] = (await chain().readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi,
      functionName: "channels",
      args: [id],
    })) as readonly [bigint, bigint];
    return { balance, totalClaimed };
  };
  const channelIdOf = async (payer: ChannelPayer) => {
    const channels = (await stack.payments.channels?.store.list()) ?? [];
    const found = channels.find(
      (channel) =>
        channel.channelConfig.payer.toLowerCase() === payer.account.address.toLowerCase(),
    );
    if (found === undefined) throw new Error("no stored channel");
    return found.channelId as Hex;
  };
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** One check paid through the payer's client scheme: the answer and its refusal reason. */
  async function pay(payer: ChannelPayer) {
    const challenge = await post();
    const required = payer.client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const payload = await payer.client.createPaymentPayload(required);
    payer.config = (payload.payload as unknown as BatchSettlementVoucherPayload).channelConfig;
    const response = await post(payer.client.encodePaymentSignatureHeader(payload));
    await payer.client
      .processPaymentResult(payload, (name) => response.headers.get(name), response.status)
      .catch(() => undefined);
    const required402 = response.headers.get("payment-required");
    if (response.status === 200) {
      served.push({ payer, location: response.headers.get(receiptLocationHeader) ?? "" });
    }
    return {
      status: response.status,
      reason: required402 ? decodePaymentRequiredHeader(required402).error : undefined,
    };
  }
  const claim = async () => {
    const channels = stack.payments.channels;
    if (!channels) throw new Error("channels are not offered");
    return channels.claim();
  };
  /** The chain's clock past the withdraw delay, and the server's view of the escrow as old. */
  async function passWithdrawDelay() {
    await chain().request({
      method: "evm_increaseTime",
      params: [channelWithdrawDelaySeconds + 1],
    } as never);
    await chain().request({ method: "evm_mine", params: [] } as never);
    // The server's clock stays put: what it last read of the escrow is aged as those 15 minutes
    // would have aged it, so verification reads the escrow again as it would then.
    const store = stack.payments.channels?.store;
    for (const channel of (await store?.list()) ?? []) {
      await store?.updateChannel(channel.channelId, (current) =>
        current === undefined
          ? current
          : {
              ...current,
              onchainSyncedAt: Date.now() - (channelWithdrawDelaySeconds + 1) * 1000,
            },
      );
    }
  }

  beforeAll(async () => {
    world = await startWorld();
    const base = chain();
    leaver = channelPayer(world);
    absent = channelPayer(world);
    honest = channelPayer(world);
    for (const payer of [leaver, absent, honest]) {
      await mintStablecoin(base, {
        token: chains.base.usdc.address,
        minter: privateKeyToAccount(world.accounts.faucet.privateKey),
        to: payer.account.address,
        amount: deposit,
      });
      // Gas for the payer's own escrow calls.
      await base.request({
        method: "anvil_setBalance",
        params: [payer.account.address, "0xde0b6b3a7640000"],
      } as never);
    }
    // The schedule's claims wait the longest allowed: each claim here is the test's.
    stack = await startPaidStack({
      world,
      channels: true,
      env: { CHANNEL_CLAIM_INTERVAL_SECS: String(maxClaimIntervalSecs) },
    });
    payToAtStart = await stack.usdcBalance(world.accounts.payTo.address);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await world?.stop();
  });

  it("takes vouchers until the claim sees the withdrawal, claims them, then refuses the next before the check runs", async () => {
    for (const payer of [leaver, leaver, leaver, honest]) {
      expect((await pay(payer)).status).toBe(200);
    }
    await leaver.escrow("initiateWithdraw", deposit);
    // Not yet seen: the server verifies from what it last read of the escrow, and the claim job
    // has a whole delay to claim it.
    expect((await pay(leaver)).status).toBe(200);
    const [claimed] = await claim();
    expect(claimed?.vouchers).toBe(2);
    expect(await escrow(leaver)).toEqual({ balance: deposit, totalClaimed: 4n * price });
    const records = await stack.records.count();
    expect(await pay(leaver)).toEqual({ status: 402, reason: channelWithdrawalPending });
    expect(await stack.records.count()).toBe(records);
    // Read by the facilitator instead (the stored view too old to verify from): refused the same.
    await stack.payments.channels?.store.updateChannel(await channelIdOf(leaver), (current) =>
      current === undefined ? current : { ...current, withdrawRequestedAt: 0, onchainSyncedAt: 0 },
    );
    expect(await pay(leaver)).toEqual({ status: 402, reason: channelWithdrawalPending });
    expect(await stack.records.count()).toBe(records);
    expect((await pay(honest)).status).toBe(200);
  });

  it("a payer who withdrew while no claim ran blocks no other channel's claim, and pays nothing more", async () => {
    for (const check of [1, 2]) expect((await pay(absent)).status, `check ${check}`).toBe(200);
    // The absent server: no claim between the withdrawal's start and its end.
    await absent.escrow("initiateWithdraw", deposit);
    await passWithdrawDelay();
    await leaver.escrow("finalizeWithdraw");
    await absent.escrow("finalizeWithdraw");
    expect(await escrow(leaver)).toEqual({ balance: 4n * price, totalClaimed: 4n * price });
    expect(await escrow(absent)).toEqual({ balance: 0n, totalClaimed: 0n });
    expect(await stack.usdcBalance(leaver.account.address)).toBe(deposit - 4n * price);
    // Each refused before the check runs: the leaver's withdrawal stays on record, the absent
    // payer's empty channel is read from the escrow.
    const records = await stack.records.count();
    expect(await pay(leaver)).toMatchObject({ status: 402, reason: channelWithdrawalPending });
    expect((await pay(absent)).status).toBe(402);
    expect(await stack.records.count()).toBe(records);
    expect((await pay(honest)).status).toBe(200);
    // The absent payer's two checks cannot be claimed any more; the honest payer's still are.
    const claims = await claim();
    expect(claims.map((result) => result.vouchers)).toEqual([1]);
    expect(await escrow(honest)).toEqual({ balance: deposit, totalClaimed: 3n * price });
    expect(await claim()).toEqual([]);
  });

  it("every check of the payers whose vouchers were claimed is settled, paid to payTo and fetchable", async () => {
    await stack.reconcile();
    await stack.payments.channels?.reconcile();
    await stack.payments.channels?.manager().settle();
    expect(await stack.usdcBalance(world.accounts.payTo.address)).toBe(payToAtStart + 7n * price);
    for (const { payer, location } of served.filter((check) => check.payer !== absent)) {
      const nonce = location.split("/").at(-1) ?? "";
      const record = await stack.records.byAuthorization({
        payer: payer.account.address,
        nonce,
      });
      expect(record?.status, nonce).toBe("settled");
      const signature = await payer.account.signMessage({ message: receiptMessage(nonce) });
      const receipt = await stack.app.request(
        `/receipts/${payer.account.address.toLowerCase()}/${nonce}?signature=${signature}`,
      );
      expect(receipt.status, nonce).toBe(200);
    }
  });
});
