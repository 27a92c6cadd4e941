import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { PaymentPayload } from "@x402/core/types";
import {
  BATCH_SETTLEMENT_ADDRESS,
  BATCH_SETTLEMENT_DOMAIN,
  type BatchSettlementDepositPayload,
  type BatchSettlementVoucherClaim,
  type BatchSettlementVoucherPayload,
  claimBatchTypes,
  toClientEvmSigner,
} from "@x402/evm";
import { computeChannelId, signVoucher } from "@x402/evm/batch-settlement/client";
import { FileChannelStorage } from "@x402/evm/batch-settlement/server/file-storage";
import { type Address, encodeAbiParameters, erc20Abi, type Hex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifacts } from "../contracts/artifacts";
import { type DevnetClient, devnetClient } from "../devnetClient";
import { devnetPrivateKey } from "../devnetPrivateKey";
import { sharedPaymentWorld } from "../testing/sharedWorld";
import { type ChannelStack, startChannelStack } from "./startChannelStack";

// The batch-settlement contracts written here, proven through the official @x402/evm client,
// server scheme, facilitator and channel manager on the shared world's Base chain (a payment lane
// of its own: this file's payer, facilitator and payTo move nobody else's balances).
const { world, lane, fund } = sharedPaymentWorld();
const usdc = chains.base.usdc.address;
const price = routePrices.check;
const deposit = 20n * price;
const network = `eip155:${chains.base.id}` as const;
const sessionKey = devnetPrivateKey(`lane-${lane.index}-session-key`);
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const payer = lane.payer.address;
const payTo = lane.payTo.address;

describe("batch-settlement channels on the local Base chain (official @x402/evm code)", () => {
  let client: DevnetClient;
  let stack: ChannelStack;

  const usdcBalance = (owner: Address) =>
    client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
  const escrow = (functionName: "channels" | "receivers", args: readonly unknown[]) =>
    client.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: artifacts.PresendBatchSettlement.abi,
      functionName,
      args,
    }) as Promise<readonly [bigint, bigint]>;
  const facilitatorNonce = () => client.getTransactionCount({ address: lane.facilitator.address });
  const chargedOnServer = async () =>
    (await stack.serverScheme.getStorage().get(stack.channelId))?.chargedCumulativeAmount;

  /** A voucher signed by the session key for `maxClaimableAmount`, as the client would send it. */
  async function voucherPayload(maxClaimableAmount: bigint): Promise<PaymentPayload> {
    const session = toClientEvmSigner(privateKeyToAccount(sessionKey));
    const payload: BatchSettlementVoucherPayload = {
      type: "voucher",
      channelConfig: (await stack.serverScheme.getStorage().get(stack.channelId))
        ?.channelConfig as BatchSettlementVoucherPayload["channelConfig"],
      voucher: await signVoucher(session, stack.channelId, String(maxClaimableAmount), network),
    };
    return { x402Version: 2, accepted: stack.requirements, payload };
  }

  let payerAtStart: bigint;
  let payToAtStart: bigint;
  const payloads: PaymentPayload[] = [];

  beforeAll(async () => {
    client = devnetClient("base", world.chains.base.rpcUrl);
    stack = await startChannelStack({
      rpcUrl: world.chains.base.rpcUrl,
      payerKey: lane.payer.privateKey,
      sessionKey,
      facilitatorKey: lane.facilitator.privateKey,
      receiverAuthorizerKey,
      payTo,
      deposit,
    });
    payerAtStart = await usdcBalance(payer);
    payToAtStart = await usdcBalance(payTo);
  });

  it("opens the channel with one EIP-3009 deposit through the deposit collector", async () => {
    const first = await stack.pay();
    expect(first.paid).toBe(true);
    if (!first.paid) return;
    payloads.push(first.payload);
    const body = first.payload.payload as unknown as BatchSettlementDepositPayload;
    expect(body.type).toBe("deposit");
    expect(first.settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await escrow("channels", [stack.channelId])).toEqual([deposit, 0n]);
    expect(await usdcBalance(payer)).toBe(payerAtStart - deposit);
    expect(await usdcBalance(BATCH_SETTLEMENT_ADDRESS)).toBeGreaterThanOrEqual(deposit);
    // The token consumed the payer's authorization under the nonce bound to this channel.
    const salt = body.deposit.authorization.erc3009Authorization?.salt as Hex;
    const nonce = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "uint256" }],
        [stack.channelId, BigInt(salt)],
      ),
    );
    expect(
      await client.readContract({
        address: usdc,
        abi: artifacts.PresendStablecoin.abi,
        functionName: "authorizationState",
        args: [payer, nonce],
      }),
    ).toBe(true);
  });

  it("pays the next 19 checks with session-key vouchers and no transaction at all", async () => {
    const nonceBefore = await facilitatorNonce();
    for (let check = 2; check <= 20; check += 1) {
      const payment = await stack.pay();
      expect(payment.paid, `check ${check}`).toBe(true);
      payloads.push(payment.payload);
      if (payment.paid) expect(payment.settlement.transaction).toBe("");
    }
    expect(await facilitatorNonce()).toBe(nonceBefore);
    expect(await chargedOnServer()).toBe(String(deposit));
    // The wallet key signed only the deposit; every voucher is the session key's.
    const last = payloads.at(-1)?.payload as unknown as BatchSettlementVoucherPayload;
    expect(last.type).toBe("voucher");
    expect(last.channelConfig.payerAuthorizer).toBe(privateKeyToAccount(sessionKey).address);
    expect(last.voucher.maxClaimableAmount).toBe(String(deposit));
  });

  it("refuses a replayed voucher and charges nothing for it", async () => {
    const replay = await stack.submit(payloads.at(-1) as PaymentPayload);
    expect(replay).toMatchObject({
      paid: false,
      reason: "invalid_batch_settlement_evm_cumulative_amount_mismatch",
    });
    expect(await chargedOnServer()).toBe(String(deposit));
  });

  it("refuses a voucher over the deposit, at the server and at the facilitator", async () => {
    const over = await voucherPayload(deposit + price);
    expect(await stack.submit(over)).toMatchObject({
      paid: false,
      reason: "invalid_batch_settlement_evm_cumulative_exceeds_balance",
    });
    // The facilitator reads the escrow's balance on chain and refuses it too.
    expect(await stack.facilitator.verify(over, stack.requirements)).toMatchObject({
      isValid: false,
      invalidReason: "invalid_batch_settlement_evm_cumulative_exceeds_balance",
    });
    expect(await chargedOnServer()).toBe(String(deposit));
  });

  it("claims the 20 vouchers in one transaction and settles them to payTo in another", async () => {
    const nonceBefore = await facilitatorNonce();
    const claims = await stack.manager.claim();
    expect(claims).toHaveLength(1);
    expect(claims[0]?.vouchers).toBe(1);
    expect(await escrow("channels", [stack.channelId])).toEqual([deposit, deposit]);
    expect(await usdcBalance(payTo)).toBe(payToAtStart);
    await stack.manager.settle();
    expect(await facilitatorNonce()).toBe(nonceBefore + 2);
    expect(await usdcBalance(payTo)).toBe(payToAtStart + deposit);
    expect(await escrow("receivers", [payTo, usdc])).toEqual([deposit, deposit]);
  });

  it("on chain: a replayed claim moves nothing, a claim over the deposit reverts", async () => {
    const channel = await stack.serverScheme.getStorage().get(stack.channelId);
    if (!channel) throw new Error("the server lost the channel");
    const replayed: BatchSettlementVoucherClaim = {
      voucher: { channel: channel.channelConfig, maxClaimableAmount: channel.signedMaxClaimable },
      signature: channel.signature as Hex,
      totalClaimed: channel.chargedCumulativeAmount,
    };
    const claimPayload = async (
      claims: BatchSettlementVoucherClaim[],
    ): Promise<PaymentPayload> => ({
      x402Version: 2,
      accepted: stack.requirements,
      payload: { type: "claim", claims, claimAuthorizerSignature: await signClaimBatch(claims) },
    });
    const replay = await stack.facilitator.settle(
      await claimPayload([replayed]),
      stack.requirements,
    );
    expect(replay.success).toBe(true);
    expect(await escrow("channels", [stack.channelId])).toEqual([deposit, deposit]);
    const settleAgain = await stack.facilitator.settle(
      {
        x402Version: 2,
        accepted: stack.requirements,
        payload: { type: "settle", receiver: payTo, token: usdc },
      },
      stack.requirements,
    );
    expect(settleAgain).toMatchObject({
      success: false,
      errorReason: "invalid_batch_settlement_evm_nothing_to_settle",
    });
    expect(await usdcBalance(payTo)).toBe(payToAtStart + deposit);

    const over = (await voucherPayload(deposit + price))
      .payload as unknown as BatchSettlementVoucherPayload;
    const overClaim = await stack.facilitator.settle(
      await claimPayload([
        {
          voucher: {
            channel: over.channelConfig,
            maxClaimableAmount: over.voucher.maxClaimableAmount,
          },
          signature: over.voucher.signature,
          totalClaimed: over.voucher.maxClaimableAmount,
        },
      ]),
      stack.requirements,
    );
    expect(overClaim).toMatchObject({
      success: false,
      errorReason: "invalid_batch_settlement_evm_claim_simulation_failed",
    });
    expect(await escrow("channels", [stack.channelId])).toEqual([deposit, deposit]);
  });

  it("tops up, then refunds the idle channel: claims what was charged, returns the rest", async () => {
    const topUp = await stack.pay();
    expect(topUp.paid).toBe(true);
    expect((topUp.payload.payload as { type: string }).type).toBe("deposit");
    expect(await escrow("channels", [stack.channelId])).toEqual([2n * deposit, deposit]);

    const refunds = await stack.manager.refundIdleChannels({ idleSecs: 0 });
    expect(refunds).toHaveLength(1);
    // One multicall: the outstanding voucher claimed (21 checks), the unclaimed rest refunded.
    const charged = deposit + price;
    expect(await escrow("channels", [stack.channelId])).toEqual([charged, charged]);
    expect(await stack.serverScheme.getStorage().get(stack.channelId)).toBeUndefined();
    await stack.manager.settle();

    // Reconciled against the chain: payTo holds exactly what was claimed, the payer the rest.
    const [claimed, settled] = await escrow("receivers", [payTo, usdc]);
    expect(claimed).toBe(charged);
    expect(settled).toBe(charged);
    expect(await usdcBalance(payTo)).toBe(payToAtStart + claimed);
    expect(await usdcBalance(payer)).toBe(payerAtStart - claimed);
  });
});

describe("a server restarted between vouchers and claim (durable channel storage)", () => {
  const directory = mkdtempSync(join(tmpdir(), "presend-channels-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("claims and settles the vouchers its predecessor took", async () => {
    // Its own payer and payTo, funded from this file's lane, so the figures are its own.
    const restartPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-restart-payer`));
    const restartPayTo = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-restart-pay-to`));
    const client = devnetClient("base", world.chains.base.rpcUrl);
    await fund(restartPayer.address, deposit);
    const start = () =>
      startChannelStack({
        rpcUrl: world.chains.base.rpcUrl,
        payerKey: devnetPrivateKey(`lane-${lane.index}-restart-payer`),
        sessionKey,
        facilitatorKey: lane.facilitator.privateKey,
        receiverAuthorizerKey,
        payTo: restartPayTo.address,
        deposit,
        storage: new FileChannelStorage({ directory }),
      });
    const before = await start();
    for (let check = 0; check < 3; check += 1) expect((await before.pay()).paid).toBe(true);
    // The first server is gone; the next one reads the same storage and claims its vouchers.
    const after = await start();
    expect(await after.manager.claim()).toHaveLength(1);
    await after.manager.settle();
    const received = await client.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [restartPayTo.address],
    });
    expect(received).toBe(3n * price);
  });
});

/** The receiver authorizer's ClaimBatch signature, over the package's own typed data. */
function signClaimBatch(claims: BatchSettlementVoucherClaim[]): Promise<Hex> {
  return privateKeyToAccount(receiverAuthorizerKey).signTypedData({
    domain: {
      ...BATCH_SETTLEMENT_DOMAIN,
      chainId: chains.base.id,
      verifyingContract: BATCH_SETTLEMENT_ADDRESS,
    },
    types: claimBatchTypes,
    primaryType: "ClaimBatch",
    message: {
      claims: claims.map((claim) => ({
        channelId: computeChannelId(claim.voucher.channel, chains.base.id),
        maxClaimableAmount: BigInt(claim.voucher.maxClaimableAmount),
        totalClaimed: BigInt(claim.totalClaimed),
      })),
    },
  });
}
