import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { artifacts, devnetAccounts, devnetClient } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { authorizationTypes } from "@x402/evm";
import { type Hex, keccak256, parseSignature, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const payTo = shared.world.accounts.payTo.address;
const target = devnetAccounts.activeOnBase.address;
const price = BigInt(routePrices.check);
const usdc = chains.base.usdc.address;
const internals = /127\.0\.0\.1:\d+|https?:\/\/|stack|at [\w.]+ \(/i;

// GET /receipts/{tx} for a transaction no record carries. The charge whose settled mark was not
// written is made for real: the records live in SQLite in a DATA_DIR on a 4 MB tmpfs mounted
// for this file, filled to its last block between the charge on chain and its mark (the tests
// run as root, as CI does). Base is the local anvil chain behind a JSON-RPC proxy that fails
// eth_getTransactionReceipt on demand; the payer is `@presend/client`.
describe("GET /receipts/{tx} for a transaction no record carries: what the chain shows", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-receipt-by-tx-"));
  const filler = join(dataDir, "filler");
  let stack: PaidStack;
  let records: PaymentRecordStore;
  let rpc: FaultyRpc;
  let beforeMarkSettled: (() => void) | null = null;
  const base = () => devnetClient("base", shared.world.chains.base.rpcUrl);
  const fillDisk = () => {
    const { bavail, bsize } = statfsSync(dataDir);
    writeFileSync(filler, Buffer.alloc(Number(bavail * bsize)));
    expect(statfsSync(dataDir).bavail).toBe(0);
  };
  const freeDisk = () => rmSync(filler, { force: true });
  const payerClient = () =>
    createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
  /** A paid check charged on chain whose record the full disk leaves open: client and charge. */
  const chargeLeftOpen = async () => {
    const client = payerClient();
    const before = await stack.usdcBalance(payer.address);
    beforeMarkSettled = fillDisk;
    const paid = await client.check({ address: target });
    beforeMarkSettled = null;
    expect(paid).toMatchObject({ type: "report", charged: true });
    if (paid.type !== "report") throw new Error("not paid");
    expect(before - (await stack.usdcBalance(payer.address))).toBe(price);
    const tx = paid.settlement.transaction.toLowerCase() as Hex;
    // No record carries the transaction: only the chain knows which payment it was.
    expect(await records.byTransaction(tx)).toBeUndefined();
    return { client, paid, tx };
  };
  const receiptReads = () =>
    rpc.calls.filter((method) => method === "eth_getTransactionReceipt").length;

  beforeAll(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", dataDir]);
    records = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
    rpc = await startFaultyRpc(shared.world.chains.base.rpcUrl);
    stack = await startPaidStack({
      world: shared.world,
      dataDir,
      paymentRpcUrl: rpc.url,
      records: {
        ...records,
        markSettled: async (key, tx) => {
          beforeMarkSettled?.();
          return records.markSettled(key, tx);
        },
      },
    });
  });
  afterEach(() => {
    beforeMarkSettled = null;
    rpc.mode = "pass";
    freeDisk();
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
    execFileSync("umount", [dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a charge whose settled mark was not written, fetched by its transaction through @presend/client: the report, charged; marked once the store takes writes", async () => {
    const { client, paid, tx } = await chargeLeftOpen();

    // Still full: the chain shows the charge, so the receipt is the report, the record unmarked.
    const fetched = await client.receipt(tx);
    expect(fetched).toMatchObject({ type: "report", charged: true, report: paid.report });
    expect(await records.byTransaction(tx)).toBeUndefined();

    freeDisk();
    const again = await client.receipt(tx);
    expect(again).toMatchObject({ type: "report", charged: true, report: paid.report });
    expect(await records.byTransaction(tx)).toMatchObject({
      status: "settled",
      tx,
      payer: payer.address.toLowerCase(),
    });
  }, 60_000);

  it("a random transaction hash, a plain USDC transfer to payTo and an EIP-3009 transfer to payTo that paid no check: 404 receipt_not_found, the client says not charged, each for one receipt read", async () => {
    const client = payerClient();
    // The client pins the server's key on its first paid check (a receipt needs a pin).
    expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    const random = keccak256(toHex(`presend random ${Date.now()}`));
    const plain = (
      await base().confirm(
        base().writeContract({
          account: payer,
          address: usdc,
          abi: artifacts.PresendStablecoin.abi,
          functionName: "transfer",
          args: [payTo, 1n],
        }),
      )
    ).transactionHash;
    // Signed like an x402 payment to payTo, but sent by the payer itself, never to presend.
    const block = await base().getBlock();
    const authorization = {
      from: payer.address,
      to: payTo,
      value: price,
      validAfter: 0n,
      validBefore: block.timestamp + 60n,
      nonce: keccak256(toHex(`presend unpresented ${Date.now()}`)),
    };
    const signature = parseSignature(
      await payer.signTypedData({
        domain: { ...nativeUsdcDomain, chainId: chains.base.id, verifyingContract: usdc },
        primaryType: "TransferWithAuthorization",
        types: authorizationTypes,
        message: authorization,
      }),
    );
    const direct = (
      await base().confirm(
        base().writeContract({
          account: payer,
          address: usdc,
          abi: artifacts.PresendStablecoin.abi,
          functionName: "transferWithAuthorization",
          args: [...Object.values(authorization), Number(signature.v), signature.r, signature.s],
        }),
      )
    ).transactionHash;

    for (const tx of [random, plain, direct]) {
      const reads = receiptReads();
      const answer = await client.receipt(tx);
      expect(answer).toMatchObject({
        type: "not_charged",
        charged: false,
        code: "receipt_not_found",
        status: 404,
      });
      // Cheap for anyone to ask: the transaction's receipt, read once, and no log search.
      expect(receiptReads() - reads).toBe(1);
    }
    expect(rpc.calls).not.toContain("eth_getLogs");
  }, 60_000);

  it("Base failing on the receipt read: 409 settlement_unknown, never 404; the client says charged unknown", async () => {
    const { client, tx } = await chargeLeftOpen();
    rpc.mode = "receiptErrors";
    const fetched = await client.receipt(tx);
    expect(fetched).toMatchObject({
      type: "receipt_unavailable",
      code: "receipt_pending",
      status: 409,
      charged: "unknown",
    });
    // The same for a hash the chain may or may not know, and nothing internal in the answer.
    const proof = await payer.signMessage({ message: `presend receipt ${tx}` });
    const answer = await stack.app.request(`/receipts/${tx}?signature=${proof}`);
    expect(answer.status).toBe(409);
    const body = await answer.json();
    expect(body.error.code).toBe("settlement_unknown");
    expect(JSON.stringify(body)).not.toMatch(internals);

    // Once Base answers, the same question is the report.
    rpc.mode = "pass";
    expect(await client.receipt(tx)).toMatchObject({ type: "report", charged: true });
  }, 60_000);
});
