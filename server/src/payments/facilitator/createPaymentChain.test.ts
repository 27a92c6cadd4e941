import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AnvilInstance,
  artifacts,
  type DevnetClient,
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  prepareDevnetChain,
  startAnvil,
} from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { authorizationTypes } from "@x402/evm";
import { type Hex, parseAbiItem, parseSignature, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import { decidePayment } from "../records/reconcilePayments";
import { startFaultyRpc } from "../testing/startFaultyRpc";
import {
  authorizationLookBackSeconds,
  createPaymentChain,
  type PaymentChain,
} from "./createPaymentChain";

const usdc = chains.base.usdc.address;
const abi = artifacts.PresendStablecoin.abi;
// A payment lane of the run's shared world: this payer's nonces and transfers are this file's own.
const { world } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const payTo = world.accounts.payTo.address;
const domain = { ...nativeUsdcDomain, chainId: chains.base.id, verifyingContract: usdc };
const nonce = (n: number): Hex => toHex(n, { size: 32 });

/** The payer's EIP-3009 transfer of 0.01 USDC to payTo under `n`, mined; its receipt. */
async function transferWithAuthorization(client: DevnetClient, n: number) {
  const block = await client.getBlock();
  const transfer = {
    from: payer.address,
    to: payTo,
    value: 10_000n,
    validAfter: 0n,
    validBefore: block.timestamp + 60n,
    nonce: nonce(n),
  };
  const signed = parseSignature(
    await payer.signTypedData({
      domain,
      primaryType: "TransferWithAuthorization",
      types: authorizationTypes,
      message: transfer,
    }),
  );
  return client.confirm(
    client.writeContract({
      account: payer,
      address: usdc,
      abi,
      functionName: "transferWithAuthorization",
      args: [...Object.values(transfer), Number(signed.v), signed.r, signed.s],
    }),
  );
}

// The payment chain against the real EIP-3009 token of the local world: what the server's
// bookkeeping reads of a transfer, a cancellation and an authorization never used.
describe("createPaymentChain (a real anvil chain)", () => {
  let client: DevnetClient;
  let chain: PaymentChain;
  let transferTx: Hex;

  beforeAll(async () => {
    const rpcUrl = world.chains.base.rpcUrl;
    client = devnetClient("base", rpcUrl);
    chain = createPaymentChain({ rpcUrls: [rpcUrl], chainId: chains.base.id, asset: usdc });

    transferTx = (await transferWithAuthorization(client, 1)).transactionHash;

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
        createPaymentChain({ rpcUrls: [rpc.url], chainId: chains.base.id, asset: usdc });
      const capped = overProxy();
      const transfer = await client.getTransactionReceipt({ hash: transferTx });
      const since = Number(
        (await client.getBlock({ blockNumber: transfer.blockNumber })).timestamp,
      );
      // Enough blocks since the transfer that walking them two at a time takes several ranges
      // (the shared chain mines one a second; right after the setup there may be only a few).
      while ((await client.getBlockNumber({ cacheTime: 0 })) < transfer.blockNumber + 8n) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
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

  it("reads what a transaction paid from its receipt: the EIP-3009 transfer and its payee; none in a cancellation; a hash the chain does not know is absent", async () => {
    expect(await chain.paymentsIn(transferTx)).toEqual({
      type: "mined",
      transfers: [
        {
          payer: payer.address.toLowerCase(),
          nonce: nonce(1),
          to: payTo.toLowerCase(),
        },
      ],
      claimReceivers: [],
    });
    const [cancelLog] = await client.getLogs({
      address: usdc,
      event: parseAbiItem(
        "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
      ),
      args: { authorizer: payer.address, nonce: nonce(2) },
      fromBlock: 0n,
    });
    expect(cancelLog).toBeDefined();
    expect(await chain.paymentsIn(cancelLog?.transactionHash as Hex)).toEqual({
      type: "mined",
      transfers: [],
      claimReceivers: [],
    });
    expect(await chain.paymentsIn(`0x${"5a".repeat(32)}`)).toEqual({ type: "absent" });
  });

  it("reads an authorization never sent: unused, not cancelled", async () => {
    expect(await chain.authorizationUsed(payer.address, nonce(3))).toBe(false);
    expect(await chain.authorizationCanceled(payer.address, nonce(3))).toBe(false);
    // Another payer's cancellation of the same nonce is not this payer's.
    expect(await chain.authorizationCanceled(payTo, nonce(2))).toBe(false);
  });

  it("finds a transfer mined a moment after its last search: each search reads the head afresh", async () => {
    // A search before the transfer, as the reconciler's previous run would have made.
    expect(await chain.findAuthorizationTx(payer.address, nonce(4))).toBe(null);
    const mined = await transferWithAuthorization(client, 4);
    // At once, well within the 4 s viem keeps a head by default.
    expect((await chain.findAuthorizationTx(payer.address, nonce(4)))?.toLowerCase()).toBe(
      mined.transactionHash.toLowerCase(),
    );
  });
});

/**
 * A JSON-RPC proxy that leaves every eth_getLogs unanswered while `hangLogs` is set (a node that
 * times out on one kind of read) and counts the calls it forwards.
 */
async function startLogHangingRpc(upstream: string) {
  const state = { hangLogs: false, calls: [] as string[] };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = (JSON.parse(body) as { method?: string }).method ?? "";
    state.calls.push(method);
    if (state.hangLogs && method === "eth_getLogs") return;
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A chain of its own, moved 5,000 Base blocks (2 s apart) past a settlement: the search must
// reach an old transfer however far behind the head it is, through an endpoint that serves ten
// blocks a request, without walking the blocks since.
describe("createPaymentChain: a transfer far behind the head", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;
  const oldPayer = privateKeyToAccount(generatePrivateKey());
  let validBefore: number;
  let transferTx: Hex;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: chains.base.id });
    client = devnetClient("base", anvil.rpcUrl);
    await prepareDevnetChain(client, "base");
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: oldPayer.address,
      amount: 1_000_000n,
    });
    await client.setBalance({ address: oldPayer.address, value: 10n ** 18n });
    // Base's block time, so the blocks at a time are where they would be on Base.
    await client.mine({ blocks: 400, interval: 2 });
    const block = await client.getBlock();
    validBefore = Number(block.timestamp) + 60;
    const transfer = {
      from: oldPayer.address,
      to: payTo,
      value: 10_000n,
      validAfter: 0n,
      validBefore: BigInt(validBefore),
      nonce: nonce(1),
    };
    const signed = parseSignature(
      await oldPayer.signTypedData({
        domain,
        primaryType: "TransferWithAuthorization",
        types: authorizationTypes,
        message: transfer,
      }),
    );
    transferTx = (
      await client.confirm(
        client.writeContract({
          account: oldPayer,
          address: usdc,
          abi,
          functionName: "transferWithAuthorization",
          args: [...Object.values(transfer), Number(signed.v), signed.r, signed.s],
        }),
      )
    ).transactionHash;
    // In parts: anvil takes seconds per few hundred blocks, longer than one request may wait.
    for (let part = 0; part < 20; part++) await client.mine({ blocks: 250, interval: 2 });
  }, 240_000);
  afterAll(() => anvil?.stop());

  it("finds it with ten blocks a request, in a bounded number of reads, and the record it pays for is settled", async () => {
    const rpc = await startFaultyRpc(anvil.rpcUrl);
    try {
      rpc.maxLogRange = 10;
      const capped = createPaymentChain({
        rpcUrls: [rpc.url],
        chainId: chains.base.id,
        asset: usdc,
      });
      const since = validBefore - authorizationLookBackSeconds;
      expect(
        (
          await capped.findAuthorizationTx(oldPayer.address, nonce(1), since, validBefore)
        )?.toLowerCase(),
      ).toBe(transferTx.toLowerCase());
      const logs = rpc.calls.filter((method) => method === "eth_getLogs").length;
      const blocks = rpc.calls.filter((method) => method === "eth_getBlockByNumber").length;
      // The window is the 300 blocks before validBefore, not the 5,000 since.
      expect(logs).toBeLessThan(60);
      expect(blocks).toBeLessThan(80);

      // An authorization never used is searched over its whole window and not found: ended.
      rpc.calls.length = 0;
      expect(await capped.findAuthorizationTx(oldPayer.address, nonce(2), since, validBefore)).toBe(
        null,
      );
      expect(rpc.calls.filter((method) => method === "eth_getLogs").length).toBeLessThan(60);

      // The reconciler decides a lost answer's record through that endpoint: settled.
      const records = createMemoryPaymentRecords();
      const lost = samplePaymentRecord(1, {
        payer: oldPayer.address,
        nonce: nonce(1),
        payTo,
        validBefore,
      });
      await records.begin(lost);
      const unknown = await records.markUnknown(lost, null);
      if (unknown === undefined) throw new Error("the record was not kept");
      expect(await decidePayment({ records, chain: capped, record: unknown })).toMatchObject({
        status: "settled",
        tx: transferTx.toLowerCase(),
      });
    } finally {
      await rpc.close();
    }
  });

  it("does not shrink its step for a read that timed out: the next search is one range again", async () => {
    const rpc = await startLogHangingRpc(anvil.rpcUrl);
    try {
      const chain = createPaymentChain({
        rpcUrls: [rpc.url],
        chainId: chains.base.id,
        asset: usdc,
        // Long enough that the calls the proxy answers never time out on a busy machine; only the
        // held eth_getLogs reaches it.
        timeoutMs: 1_500,
      });
      const since = validBefore - authorizationLookBackSeconds;
      rpc.state.hangLogs = true;
      await expect(
        chain.findAuthorizationTx(oldPayer.address, nonce(1), since, validBefore),
      ).rejects.toThrow();
      // A timeout is a failed read, not a refused range: it was not retried smaller.
      expect(rpc.state.calls.filter((method) => method === "eth_getLogs")).toHaveLength(1);
      rpc.state.hangLogs = false;
      rpc.state.calls.length = 0;
      expect(
        (
          await chain.findAuthorizationTx(oldPayer.address, nonce(1), since, validBefore)
        )?.toLowerCase(),
      ).toBe(transferTx.toLowerCase());
      expect(rpc.state.calls.filter((method) => method === "eth_getLogs")).toHaveLength(1);
    } finally {
      await rpc.close();
    }
  });

  it("grows its step back after served ranges once the endpoint's cap is lifted", async () => {
    const rpc = await startFaultyRpc(anvil.rpcUrl);
    try {
      const chain = createPaymentChain({
        rpcUrls: [rpc.url],
        chainId: chains.base.id,
        asset: usdc,
      });
      const since = validBefore - authorizationLookBackSeconds;
      rpc.maxLogRange = 10;
      expect(await chain.findAuthorizationTx(oldPayer.address, nonce(2), since, validBefore)).toBe(
        null,
      );
      const cappedLogs = rpc.calls.filter((method) => method === "eth_getLogs").length;
      // The last day of blocks without a time bound: the step doubles with every range served.
      rpc.maxLogRange = null;
      rpc.calls.length = 0;
      expect(await chain.findAuthorizationTx(oldPayer.address, nonce(2))).toBe(null);
      const uncappedLogs = rpc.calls.filter((method) => method === "eth_getLogs").length;
      // At a fixed 10 blocks, the 5,400 blocks would take 540 requests (more than a search may
      // make); grown back after a run of served ranges, a few dozen.
      expect(uncappedLogs).toBeLessThan(60);
      expect(cappedLogs).toBeLessThan(60);
    } finally {
      await rpc.close();
    }
  });
});
