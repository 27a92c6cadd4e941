import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import {
  authorizationTypes,
  BATCH_SETTLEMENT_ADDRESS,
  BATCH_SETTLEMENT_DOMAIN,
  type ChannelConfig,
  claimBatchTypes,
  ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
  refundTypes,
  voucherTypes,
} from "@x402/evm";
import { computeChannelId } from "@x402/evm/batch-settlement/client";
import {
  type Address,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  hashTypedData,
  keccak256,
  type PrivateKeyAccount,
  parseEther,
  parseUnits,
  toHex,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifacts } from "./contracts/artifacts";
import { devnetAccounts } from "./devnetAccounts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { devnetPrivateKey } from "./devnetPrivateKey";
import { mintStablecoin } from "./mintStablecoin";
import { prepareDevnetChain } from "./prepareDevnetChain";
import { type AnvilInstance, startAnvil } from "./startAnvil";

// The escrow's own rules, called directly (the official client and facilitator drive it in
// channels/startChannelStack.test.ts). An anvil of its own: the timed withdrawal moves the chain's
// clock forward, which would shift the time every other file sees on the shared world.
const escrowAbi = artifacts.PresendBatchSettlement.abi;
const usdc = chains.base.usdc.address;
const account = (label: string) => privateKeyToAccount(devnetPrivateKey(`test: channel ${label}`));
const payer = account("payer");
const session = account("session key");
const receiver = account("receiver");
const authorizer = account("receiver authorizer");
const relayer = account("relayer");
const stranger = account("stranger");
const domain = {
  ...BATCH_SETTLEMENT_DOMAIN,
  chainId: chains.base.id,
  verifyingContract: BATCH_SETTLEMENT_ADDRESS,
} as const;

let saltCounter = 0;
const config = (overrides: Partial<ChannelConfig> = {}): ChannelConfig => ({
  payer: payer.address,
  payerAuthorizer: session.address,
  receiver: receiver.address,
  receiverAuthorizer: authorizer.address,
  token: usdc,
  withdrawDelay: 900,
  salt: toHex(++saltCounter, { size: 32 }),
  ...overrides,
});

describe("installBatchSettlement (the batch-settlement escrow on a real anvil chain)", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: chains.base.id });
    client = devnetClient("base", anvil.rpcUrl);
    await prepareDevnetChain(client, "base");
    await mintStablecoin(client, {
      token: usdc,
      minter: privateKeyToAccount(devnetAccounts.faucet.privateKey),
      to: payer.address,
      amount: parseUnits("100", 6),
    });
    for (const each of [payer, session, receiver, authorizer, relayer, stranger]) {
      await client.setBalance({ address: each.address, value: parseEther("1") });
    }
  });
  afterAll(() => anvil?.stop());

  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: escrowAbi,
      functionName,
      args,
    }) as Promise<T>;
  const send = (from: PrivateKeyAccount, functionName: string, args: readonly unknown[]) =>
    client.confirm(
      client.writeContract({
        account: from,
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: escrowAbi,
        functionName,
        args,
      }),
    );
  const usdcOf = (owner: Address) =>
    client.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
  const channelId = (channel: ChannelConfig) => computeChannelId(channel, chains.base.id);

  /** The payer's EIP-3009 deposit, relayed by someone else, as the facilitator encodes it. */
  async function depositInto(
    channel: ChannelConfig,
    amount: bigint,
    options: { signedFor?: ChannelConfig; collector?: Address } = {},
  ): Promise<void> {
    const { timestamp } = await client.getBlock();
    const salt = BigInt(keccak256(toHex(`deposit ${++saltCounter}`)));
    const nonce = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "uint256" }],
        [channelId(options.signedFor ?? channel), salt],
      ),
    );
    const validBefore = timestamp + 600n;
    const signature = await payer.signTypedData({
      domain: { ...nativeUsdcDomain, chainId: chains.base.id, verifyingContract: usdc },
      types: { ReceiveWithAuthorization: authorizationTypes.TransferWithAuthorization },
      primaryType: "ReceiveWithAuthorization",
      message: {
        from: payer.address,
        to: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        value: amount,
        validAfter: 0n,
        validBefore,
        nonce,
      },
    });
    const collectorData = encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes" }],
      [0n, validBefore, salt, signature],
    );
    const collector = options.collector ?? ERC3009_DEPOSIT_COLLECTOR_ADDRESS;
    await send(relayer, "deposit", [channel, amount, collector, collectorData]);
  }

  const signVoucher = (signer: PrivateKeyAccount, id: Hex, maxClaimableAmount: bigint) =>
    signer.signTypedData({
      domain,
      types: voucherTypes,
      primaryType: "Voucher",
      message: { channelId: id, maxClaimableAmount },
    });
  const claimOf = async (channel: ChannelConfig, amount: bigint, signer = session) => ({
    voucher: { channel, maxClaimableAmount: amount },
    signature: await signVoucher(signer, channelId(channel), amount),
    totalClaimed: amount,
  });

  it("sits at the canonical addresses and hashes exactly like @x402/evm", async () => {
    expect(await client.getCode({ address: BATCH_SETTLEMENT_ADDRESS })).toBe(
      artifacts.PresendBatchSettlement.deployedBytecode,
    );
    expect(await client.getCode({ address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS })).toBe(
      artifacts.PresendErc3009DepositCollector.deployedBytecode,
    );
    expect(
      await client.readContract({
        address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
        abi: artifacts.PresendErc3009DepositCollector.abi,
        functionName: "BATCH_SETTLEMENT",
      }),
    ).toBe(BATCH_SETTLEMENT_ADDRESS);
    const channel = config();
    const id = channelId(channel);
    expect(await read("getChannelId", [channel])).toBe(id);
    expect(await read("getVoucherDigest", [id, 1234n])).toBe(
      hashTypedData({
        domain,
        types: voucherTypes,
        primaryType: "Voucher",
        message: { channelId: id, maxClaimableAmount: 1234n },
      }),
    );
    expect(await read("getRefundDigest", [id, 7n, 99n])).toBe(
      hashTypedData({
        domain,
        types: refundTypes,
        primaryType: "Refund",
        message: { channelId: id, nonce: 7n, amount: 99n },
      }),
    );
    const claims = [await claimOf(channel, 10n), await claimOf(config(), 20n)];
    expect(await read("getClaimBatchDigest", [claims])).toBe(
      hashTypedData({
        domain,
        types: claimBatchTypes,
        primaryType: "ClaimBatch",
        message: {
          claims: claims.map((claim) => ({
            channelId: channelId(claim.voucher.channel),
            maxClaimableAmount: claim.voucher.maxClaimableAmount,
            totalClaimed: claim.totalClaimed,
          })),
        },
      }),
    );
  });

  it("lets only the escrow call the deposit collector", async () => {
    await expect(
      client.confirm(
        client.writeContract({
          account: stranger,
          address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
          abi: artifacts.PresendErc3009DepositCollector.abi,
          functionName: "collect",
          args: [payer.address, usdc, 1n, toHex(0, { size: 32 }), "0x"],
        }),
      ),
    ).rejects.toThrow(/OnlyBatchSettlement/);
  });

  it("refuses channels without a receiver authorizer or with a withdraw delay out of range", async () => {
    await expect(depositInto(config({ receiverAuthorizer: zeroAddress }), 1_000n)).rejects.toThrow(
      /InvalidChannelConfig/,
    );
    await expect(depositInto(config({ withdrawDelay: 899 }), 1_000n)).rejects.toThrow(
      /WithdrawDelayOutOfRange/,
    );
    await expect(depositInto(config({ withdrawDelay: 30 * 86_400 + 1 }), 1_000n)).rejects.toThrow(
      /WithdrawDelayOutOfRange/,
    );
  });

  it("credits a deposit only with the payer's authorization for that very channel", async () => {
    const channel = config();
    // Signed for another channel: the nonce differs, so the token refuses the signature.
    await expect(depositInto(channel, 1_000n, { signedFor: config() })).rejects.toThrow(
      /invalid signature/,
    );
    // A "collector" that accepts the call and delivers nothing (its code is a bare STOP) is
    // caught by the escrow's own balance check.
    const idleCollector: Address = "0x00000000000000000000000000000000c011ec70";
    await client.setCode({ address: idleCollector, bytecode: "0x00" });
    await expect(depositInto(channel, 1_000n, { collector: idleCollector })).rejects.toThrow(
      /DepositNotReceived/,
    );
    expect(await read("channels", [channelId(channel)])).toEqual([0n, 0n]);
    const before = await usdcOf(payer.address);
    await depositInto(channel, 1_000n);
    expect(await read("channels", [channelId(channel)])).toEqual([1_000n, 0n]);
    expect(await usdcOf(payer.address)).toBe(before - 1_000n);
  });

  it("without a session key, takes the payer's own voucher signature and no other", async () => {
    const channel = config({ payerAuthorizer: zeroAddress });
    await depositInto(channel, 2_000n);
    await expect(send(receiver, "claim", [[await claimOf(channel, 500n)]])).rejects.toThrow(
      /InvalidVoucherSignature/,
    );
    await send(receiver, "claim", [[await claimOf(channel, 500n, payer)]]);
    expect(await read("channels", [channelId(channel)])).toEqual([2_000n, 500n]);
  });

  it("claims only with the session key's voucher, only for the receiver side", async () => {
    const channel = config();
    await depositInto(channel, 5_000n);
    await expect(send(stranger, "claim", [[await claimOf(channel, 1_000n)]])).rejects.toThrow(
      /NotReceiverSide/,
    );
    // With a session key set, even the payer's own signature is not a voucher.
    await expect(
      send(receiver, "claim", [[await claimOf(channel, 1_000n, payer)]]),
    ).rejects.toThrow(/InvalidVoucherSignature/);
    const [claimedBefore, settledBefore] = await read<readonly [bigint, bigint]>("receivers", [
      receiver.address,
      usdc,
    ]);
    await send(receiver, "claim", [[await claimOf(channel, 1_000n)]]);
    expect(await read("channels", [channelId(channel)])).toEqual([5_000n, 1_000n]);
    expect(await read("receivers", [receiver.address, usdc])).toEqual([
      claimedBefore + 1_000n,
      settledBefore,
    ]);
    // claimWithSignature needs the receiver authorizer's batch signature; anyone may relay it.
    const batch = [await claimOf(channel, 3_000n)];
    const forged = await stranger.signTypedData({
      domain,
      types: claimBatchTypes,
      primaryType: "ClaimBatch",
      message: {
        claims: [
          { channelId: channelId(channel), maxClaimableAmount: 3_000n, totalClaimed: 3_000n },
        ],
      },
    });
    await expect(send(relayer, "claimWithSignature", [batch, forged])).rejects.toThrow(
      /InvalidAuthorizerSignature/,
    );
    const signed = await authorizer.signTypedData({
      domain,
      types: claimBatchTypes,
      primaryType: "ClaimBatch",
      message: {
        claims: [
          { channelId: channelId(channel), maxClaimableAmount: 3_000n, totalClaimed: 3_000n },
        ],
      },
    });
    await send(relayer, "claimWithSignature", [batch, signed]);
    expect(await read("channels", [channelId(channel)])).toEqual([5_000n, 3_000n]);
    // A claim above its voucher's ceiling or above the deposit reverts; settle pays the receiver.
    await expect(
      send(receiver, "claim", [[{ ...(await claimOf(channel, 4_000n)), totalClaimed: 4_001n }]]),
    ).rejects.toThrow(/ClaimAboveVoucher/);
    await expect(send(receiver, "claim", [[await claimOf(channel, 5_001n)]])).rejects.toThrow(
      /ClaimExceedsBalance/,
    );
    const before = await usdcOf(receiver.address);
    await send(stranger, "settle", [receiver.address, usdc]);
    expect(await usdcOf(receiver.address)).toBe(before + claimedBefore - settledBefore + 3_000n);
    const [claimed, settled] = await read<readonly [bigint, bigint]>("receivers", [
      receiver.address,
      usdc,
    ]);
    expect(settled).toBe(claimed);
  });

  it("refunds only with the receiver authorizer's signature for the current nonce", async () => {
    const channel = config();
    const id = channelId(channel);
    await depositInto(channel, 4_000n);
    await send(receiver, "claim", [[await claimOf(channel, 1_000n)]]);
    const signRefund = (signer: PrivateKeyAccount, nonce: bigint, amount: bigint) =>
      signer.signTypedData({
        domain,
        types: refundTypes,
        primaryType: "Refund",
        message: { channelId: id, nonce, amount },
      });
    await expect(
      send(relayer, "refundWithSignature", [
        channel,
        500n,
        0n,
        await signRefund(stranger, 0n, 500n),
      ]),
    ).rejects.toThrow(/InvalidAuthorizerSignature/);
    await expect(
      send(relayer, "refundWithSignature", [
        channel,
        500n,
        1n,
        await signRefund(authorizer, 1n, 500n),
      ]),
    ).rejects.toThrow(/InvalidRefundNonce/);
    await expect(send(stranger, "refund", [channel, 500n])).rejects.toThrow(/NotReceiverSide/);

    const before = await usdcOf(payer.address);
    const signed = await signRefund(authorizer, 0n, 500n);
    await send(relayer, "refundWithSignature", [channel, 500n, 0n, signed]);
    expect(await usdcOf(payer.address)).toBe(before + 500n);
    expect(await read("refundNonce", [id])).toBe(1n);
    // The same signature again is stale; a refund asks for more than is unclaimed gets the rest.
    await expect(send(relayer, "refundWithSignature", [channel, 500n, 0n, signed])).rejects.toThrow(
      /InvalidRefundNonce/,
    );
    await send(authorizer, "refund", [channel, 10_000n]);
    expect(await usdcOf(payer.address)).toBe(before + 3_000n);
    expect(await read("channels", [id])).toEqual([1_000n, 1_000n]);
    // Nothing left: the nonce still advances, so an older signature cannot be used later.
    await send(receiver, "refund", [channel, 1n]);
    expect(await read("refundNonce", [id])).toBe(3n);
  });

  it("lets the payer leave through a timed withdrawal the receiver can still claim against", async () => {
    const channel = config();
    const id = channelId(channel);
    await depositInto(channel, 6_000n);
    await expect(send(stranger, "initiateWithdraw", [channel, 6_000n])).rejects.toThrow(
      /NotPayerSide/,
    );
    await expect(send(session, "initiateWithdraw", [channel, 6_001n])).rejects.toThrow(
      /WithdrawAmountInvalid/,
    );
    await send(session, "initiateWithdraw", [channel, 6_000n]);
    const [, initiatedAt] = await read<readonly [bigint, number]>("pendingWithdrawals", [id]);
    expect(initiatedAt).toBeGreaterThan(0);
    await expect(send(payer, "finalizeWithdraw", [channel])).rejects.toThrow(
      /WithdrawDelayNotElapsed/,
    );
    // Within the delay the receiver claims what it is owed; the payer leaves with the rest.
    await send(receiver, "claim", [[await claimOf(channel, 2_500n)]]);
    await client.increaseTime({ seconds: 900 });
    await client.mine({ blocks: 1 });
    const before = await usdcOf(payer.address);
    await send(payer, "finalizeWithdraw", [channel]);
    expect(await usdcOf(payer.address)).toBe(before + 3_500n);
    expect(await read("channels", [id])).toEqual([2_500n, 2_500n]);
    expect(await read("pendingWithdrawals", [id])).toEqual([0n, 0]);
    await expect(send(payer, "finalizeWithdraw", [channel])).rejects.toThrow(/NoPendingWithdrawal/);
  });
});
