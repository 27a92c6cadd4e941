import { artifacts, type DevnetClient, devnetClient } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { authorizationTypes } from "@x402/evm";
import { type Hex, parseSignature, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { decidePayment } from "../records/reconcilePayments";
import { startFaultyRpc } from "../testing/startFaultyRpc";
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

  it("finds the transfer and the cancellation through an endpoint that caps eth_getLogs ranges, walking back in ranges it serves", async () => {
    const rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    try {
      // Two blocks a request: the walk must step back from the head over every block since.
      rpc.maxLogRange = 2;
      const overProxy = () =>
        createPaymentChain({ rpcUrl: rpc.url, chainId: chains.base.id, asset: usdc });
      const capped = overProxy();
      const transfer = await client.getTransactionReceipt({ hash: transferTx });
      const since = Number(
        (await client.getBlock({ blockNumber: transfer.blockNumber })).timestamp,
      );
      expect(
        (await capped.findAuthorizationTx(payer.address, nonce(1), since))?.toLowerCase(),
      ).toBe(transferTx.toLowerCase());
      expect(await capped.authorizationCanceled(payer.address, nonce(2), since)).toBe(true);
      // Ended, not stuck: an authorization never used is searched back to `since` and not found.
      expect(await capped.findAuthorizationTx(payer.address, nonce(3), since)).toBe(null);
      expect(rpc.calls.filter((method) => method === "eth_getLogs").length).toBeGreaterThan(3);
      // Uncapped, the same search is one range.
      rpc.maxLogRange = null;
      rpc.calls.length = 0;
      expect(await overProxy().findAuthorizationTx(payer.address, nonce(1), since)).not.toBe(null);
      expect(rpc.calls.filter((method) => method === "eth_getLogs")).toHaveLength(1);

      // A payment whose settlement answer was lost (no transaction learned) is decided through
      // the capped endpoint: settled with the transfer, not left unknown.
      rpc.maxLogRange = 2;
      const records = createMemoryPaymentRecords();
      const lost = samplePaymentRecord(1, {
        payer: payer.address,
        nonce: nonce(1),
        payTo,
        validBefore: since + 60,
      });
      await records.begin(lost);
      const unknown = await records.markUnknown(lost, null);
      if (unknown === undefined) throw new Error("the record was not kept");
      expect(
        await decidePayment({
          records,
          chain: overProxy(),
          record: unknown,
        }),
      ).toMatchObject({
        status: "settled",
        tx: transferTx.toLowerCase(),
      });
    } finally {
      await rpc.close();
    }
  });

  it("reads an authorization never sent: unused, not cancelled", async () => {
    expect(await chain.authorizationUsed(payer.address, nonce(3))).toBe(false);
    expect(await chain.authorizationCanceled(payer.address, nonce(3))).toBe(false);
    // Another payer's cancellation of the same nonce is not this payer's.
    expect(await chain.authorizationCanceled(payTo, nonce(2))).toBe(false);
  });
});
