import {
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PresendSigner,
} from "@presend/client";
import {
  artifacts,
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  startWorld,
  type World,
} from "@presend/devnet";
import { channelWithdrawalPending } from "@presend/shared/api/channelWithdrawalPending";
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
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptLocationHeader } from "../resourceServer/paymentLedger";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { maxClaimIntervalSecs } from "./channelSchedule";
import { channelWithdrawDelaySeconds } from "./createChannels";

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

type ChannelConfig = BatchSettlementVoucherPayload["channelConfig"];

/** Calls the escrow from the payer's own wallet, as a payer leaving without presend would. */
async function callEscrow(
  world: World,
  account: PrivateKeyAccount,
  channelConfig: ChannelConfig,
  functionName: "initiateWithdraw" | "finalizeWithdraw",
  amount?: bigint,
) {
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  const wallet = createWalletClient({
    account,
    chain: chain.chain,
    transport: http(world.chains.base.rpcUrl),
  });
  const config = { ...channelConfig, withdrawDelay: Number(channelConfig.withdrawDelay) };
  const hash = await wallet.writeContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi,
    functionName,
    args: amount === undefined ? [config] : [config, amount],
  } as never);
  const receipt = await chain.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

/**
 * A payer with its own wallet on the local Base, paying through the official client scheme; each
 * deposit puts in `depositAmount`.
 */
function channelPayer(world: World, depositAmount = deposit) {
  const account = privateKeyToAccount(generatePrivateKey());
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  const scheme = new ChannelClientScheme(toClientEvmSigner(account, chain), {
    voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
    depositStrategy: () => depositAmount,
  });
  return {
    account,
    client: new x402HTTPClient(new x402Client().register(network, scheme)),
    config: null as ChannelConfig | null,
    /** What the last payment carried. */
    sent: null as "deposit" | "voucher" | null,
    /** Calls the escrow from the payer's wallet over the channel it paid through. */
    async escrow(functionName: "initiateWithdraw" | "finalizeWithdraw", amount?: bigint) {
      if (this.config === null) throw new Error("no channel opened");
      await callEscrow(world, account, this.config, functionName, amount);
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
  /** Tops its channel up two checks at a time. */
  let topper: ChannelPayer;
  /** Pays through @presend/client, whose pins the receipts below are verified with. */
  const wanderer = privateKeyToAccount(generatePrivateKey());
  const pinStore = createMemoryPinStore();
  let payToAtStart: bigint;
  const served: { payer: ChannelPayer; location: string }[] = [];
  const chain = () => devnetClient("base", world.chains.base.rpcUrl);
  const escrow = async (payer: ChannelPayer) => escrowOf(await channelIdOf(payer));
  const escrowOf = async (id: Hex) => {
    const [balance, totalClaimed] = (await chain().readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi,
      functionName: "channels",
      args: [id],
    })) as readonly [bigint, bigint];
    return { balance, totalClaimed };
  };
  /** The channels the server stores for `payer`'s wallet. */
  const channelsOf = async (payer: { address: string }) =>
    ((await stack.payments.channels?.store.list()) ?? []).filter(
      (channel) => channel.channelConfig.payer.toLowerCase() === payer.address.toLowerCase(),
    );
  const channelIdOf = async (payer: ChannelPayer) => {
    const [found] = await channelsOf(payer.account);
    if (found === undefined) throw new Error("no stored channel");
    return found.channelId as Hex;
  };
  /** @presend/client for `account`, paying over channels through the paid API. */
  const presendClient = (account: PrivateKeyAccount, signer: PresendSigner = account) =>
    createPresendClient({
      url: stack.publicUrl,
      signer,
      pinStore,
      spendCap: createSessionSpendCap(100n * price),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
      channel: { voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())) },
    });
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
    payer.sent = (payload.payload as { type?: string }).type === "deposit" ? "deposit" : "voucher";
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
    topper = channelPayer(world, 2n * price);
    const wallets = [leaver, absent, honest, topper].map((payer) => payer.account);
    for (const account of [...wallets, wanderer]) {
      await mintStablecoin(base, {
        token: chains.base.usdc.address,
        minter: privateKeyToAccount(world.accounts.faucet.privateKey),
        to: account.address,
        amount: account === wanderer ? 2n * deposit : deposit,
      });
      // Gas for the payer's own escrow calls.
      await base.request({
        method: "anvil_setBalance",
        params: [account.address, "0xde0b6b3a7640000"],
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

  // Deposits before the withdraw delay is passed below: an authorization is valid by the
  // server's clock, which stays put while the chain's moves on.
  it("refuses a top-up deposit into a channel whose payer started a withdrawal, before the deposit is settled", async () => {
    // Two checks from a deposit of two: the channel is full, so the next one tops it up.
    for (const check of [1, 2]) expect((await pay(topper)).status, `check ${check}`).toBe(200);
    await topper.escrow("initiateWithdraw", price);
    const wallet = await stack.usdcBalance(topper.account.address);
    const records = await stack.records.count();
    // Not yet seen by any claim: the facilitator reads it while verifying the deposit.
    expect((await channelsOf(topper.account))[0]?.withdrawRequestedAt).toBe(0);
    expect(await pay(topper)).toEqual({ status: 402, reason: channelWithdrawalPending });
    expect(topper.sent).toBe("deposit");
    expect(await stack.usdcBalance(topper.account.address)).toBe(wallet);
    expect(await escrow(topper)).toEqual({ balance: 2n * price, totalClaimed: 0n });
    expect(await stack.records.count()).toBe(records);
    // The refusal keeps what it read, and the two checks served before it are claimed.
    expect((await channelsOf(topper.account))[0]?.withdrawRequestedAt).toBeGreaterThan(0);
    await claim();
    expect(await escrow(topper)).toEqual({ balance: 2n * price, totalClaimed: 2n * price });
  });

  it("@presend/client leaves a channel its payer is withdrawing and pays the same check through a new one", async () => {
    let walletSignatures = 0;
    const signer: PresendSigner = {
      address: wanderer.address,
      signTypedData: (typedData) => {
        walletSignatures += 1;
        return wanderer.signTypedData(typedData as never);
      },
      signMessage: (args) => wanderer.signMessage(args),
    };
    const client = presendClient(wanderer, signer);
    expect(await client.check(body)).toMatchObject({ type: "report", charged: true });
    const [first] = await channelsOf(wanderer);
    if (first === undefined) throw new Error("no stored channel");
    // The payer withdraws with another tool; the claim job sees it (and claims the first check).
    await callEscrow(world, wanderer, first.channelConfig, "initiateWithdraw", deposit - price);
    await claim();
    expect((await channelsOf(wanderer))[0]?.withdrawRequestedAt).toBeGreaterThan(0);
    const walletBefore = await stack.usdcBalance(wanderer.address);
    expect(await client.check(body)).toMatchObject({
      type: "report",
      signature: "verified",
      charged: true,
      settlement: { viaChannel: true, payer: wanderer.address },
    });
    // A second channel, from a second deposit the wallet signed; the first keeps its one check.
    const channels = await channelsOf(wanderer);
    expect(channels).toHaveLength(2);
    expect(walletSignatures).toBe(2);
    expect(await stack.usdcBalance(wanderer.address)).toBe(walletBefore - deposit);
    expect(await escrowOf(first.channelId as Hex)).toEqual({
      balance: deposit,
      totalClaimed: price,
    });
    // Claimed now, as the next claim would: what follows counts only the others' vouchers.
    expect((await claim()).map((result) => result.vouchers)).toEqual([1]);
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
    // The leaver's 4, the honest payer's 3, the topper's 2 and the wanderer's 2 (one per channel).
    expect(await stack.usdcBalance(world.accounts.payTo.address)).toBe(payToAtStart + 11n * price);
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

  it("decides the checks no claim can reach any more from the chain: not charged, and says so", async () => {
    await stack.payments.channels?.reconcile();
    const stranded = served.filter((check) => check.payer === absent);
    expect(stranded).toHaveLength(2);
    const client = presendClient(absent.account);
    for (const { location } of stranded) {
      const nonce = location.split("/").at(-1) ?? "";
      const key = { payer: absent.account.address, nonce };
      expect((await stack.records.byAuthorization(key))?.status, nonce).toBe("failed");
      const signature = await absent.account.signMessage({ message: receiptMessage(nonce) });
      const answer = await stack.app.request(
        `/receipts/${absent.account.address.toLowerCase()}/${nonce}?signature=${signature}`,
      );
      expect(answer.status, nonce).toBe(404);
      expect(await answer.json()).toMatchObject({
        error: {
          code: "receipt_not_found",
          message: expect.stringContaining("nothing was charged"),
        },
      });
      expect(
        await client.receipt({ payer: absent.account.address, nonce: nonce as Hex }),
      ).toMatchObject({
        type: "not_charged",
        code: "receipt_not_found",
        charged: false,
      });
    }
    // The channel is cut to what the escrow holds (nothing): no claim reaches those vouchers,
    // not even after a deposit into it, and nothing of it is left to decide.
    const [channel] = await channelsOf(absent.account);
    expect(channel?.chargedCumulativeAmount).toBe("0");
    expect(await stack.payments.channels?.store.unclaimedCharges(channel?.channelId)).toEqual([]);
    expect(await claim()).toEqual([]);
  });
});
