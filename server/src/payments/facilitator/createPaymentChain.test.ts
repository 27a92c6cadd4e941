import { artifacts, type DevnetClient, devnetClient } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { authorizationTypes } from "@x402/evm";
import { type Hex, parseSignature, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createPaymentChain, type PaymentChain } from "./createPaymentChain";

const usdc = chains.base.usdc.address;
const abi = artifacts.PresendStablecoin.abi;
// A payment lane of the run's shared world: this payer's nonces and transfers are this file's own.
const { world } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const payTo = world.accounts.payTo.address;
const domain = { ...nativeUsdcDomain, chainId: chains.base.id, verifyingContract: usdc };
const nonce = (n: number): Hex => toHex(n, { size: 32 });

// The payment chain against the real EIP-3009 token of the local world: what the server's
// bookkeeping reads of a transfer, a cancellation and an authorization never used.
describe("createPaymentChain (a real anvil chain)", () => {
  let client: DevnetClient;
  let chain: PaymentChain;
  let transferTx: Hex;

  beforeAll(async () => {
    const rpcUrl = world.chains.base.rpcUrl;
    client = devnetClient("base", rpcUrl);
    chain = createPaymentChain({ rpcUrl, chainId: chains.base.id, asset: usdc });

    const block = await client.getBlock();
    const transfer = {
      from: payer.address,
      to: payTo,
      value: 10_000n,
      validAfter: 0n,
      validBefore: block.timestamp + 60n,
      nonce: nonce(1),
    };
    const signed = parseSignature(
      await payer.signTypedData({
        domain,
        primaryType: "TransferWithAuthorization",
        types: authorizationTypes,
        message: transfer,
      }),
    );
    transferTx = (
      await client.confirm(
        client.writeContract({
          account: payer,
          address: usdc,
          abi,
          functionName: "transferWithAuthorization",
          args: [...Object.values(transfer), Number(signed.v), signed.r, signed.s],
        }),
      )
    ).transactionHash;

    const cancel = parseSignature(
      await payer.signTypedData({
        domain,
        primaryType: "CancelAuthorization",
        types: {
          CancelAuthorization: [
            { name: "authorizer", type: "address" },
            { name: "nonce", type: "bytes32" },
          ],
        },
        message: { authorizer: payer.address, nonce: nonce(2) },
      }),
    );
    await client.confirm(
      client.writeContract({
        account: payer,
        address: usdc,
        abi,
        functionName: "cancelAuthorization",
        args: [payer.address, nonce(2), Number(cancel.v), cancel.r, cancel.s],
      }),
    );
  });

  it("reads a used authorization: used, by its transaction, not cancelled", async () => {
    expect(await chain.authorizationUsed(payer.address, nonce(1))).toBe(true);
    expect((await chain.findAuthorizationTx(payer.address, nonce(1)))?.toLowerCase()).toBe(
      transferTx.toLowerCase(),
    );
    expect(await chain.receiptStatus(transferTx)).toBe("success");
    expect(await chain.authorizationCanceled(payer.address, nonce(1))).toBe(false);
  });

  it("reads a cancelled authorization: used (the token says so) by no transfer, and cancelled", async () => {
    expect(await chain.authorizationUsed(payer.address, nonce(2))).toBe(true);
    expect(await chain.findAuthorizationTx(payer.address, nonce(2))).toBe(null);
    expect(await chain.authorizationCanceled(payer.address, nonce(2))).toBe(true);
  });

  it("reads an authorization never sent: unused, not cancelled", async () => {
    expect(await chain.authorizationUsed(payer.address, nonce(3))).toBe(false);
    expect(await chain.authorizationCanceled(payer.address, nonce(3))).toBe(false);
    // Another payer's cancellation of the same nonce is not this payer's.
    expect(await chain.authorizationCanceled(payTo, nonce(2))).toBe(false);
  });
});
