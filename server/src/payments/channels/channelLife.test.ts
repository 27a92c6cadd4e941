import { artifacts, devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../http/freePort";
import { type Listening, listen } from "../../http/listen";
import { receiptLocationHeader } from "../resourceServer/paymentLedger";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// One channel's whole life over HTTP, with the official @x402/fetch client and @x402/evm's
// batch-settlement client scheme against the paid API on a payment lane of the shared world:
// one deposit, 20 checks, one claim, one settlement, the idle rest refunded, every report
// recorded, fetchable by its payer and reconciled with the chain.
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 25n * price;
const checks = 20;
const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-channel-payer`));
const sessionKey = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-channel-session`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;

describe("a batch-settlement channel's life over HTTP (deposit, 20 checks, claim, settle, refund)", () => {
  let stack: PaidStack;
  let server: Listening;
  const client = devnetClient("base", world.chains.base.rpcUrl);
  const escrow = (channelId: Hex) =>
    client.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: artifacts.PresendBatchSettlement.abi,
      functionName: "channels",
      args: [channelId],
    }) as Promise<readonly [bigint, bigint]>;
  const facilitatorNonce = () => client.getTransactionCount({ address: lane.facilitator.address });
  const receipts: { nonce: string; body: unknown; signature: string | null }[] = [];
  let channelId: Hex;
  let payerAtStart: bigint;
  let payToAtStart: bigint;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({
      world,
      publicUrl: `http://127.0.0.1:${port}`,
      receiverAuthorizerKey,
    });
    server = await listen(stack.app, { port });
    await fund(payer.address, deposit);
    payerAtStart = await stack.usdcBalance(payer.address);
    payToAtStart = await stack.usdcBalance(lane.payTo.address);
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("offers exact first and batch-settlement second, same payTo, price and asset", async () => {
    const response = await fetch(`${server.url}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    expect(response.status).toBe(402);
    const challenge = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
    expect(challenge.accepts.map((accept) => accept.scheme)).toEqual(["exact", "batch-settlement"]);
    const [exact, channel] = challenge.accepts;
    expect(channel).toMatchObject({
      payTo: exact?.payTo,
      amount: exact?.amount,
      asset: exact?.asset,
      network,
      extra: {
        receiverAuthorizer: privateKeyToAccount(receiverAuthorizerKey).address,
        withdrawDelay: 900,
      },
    });
  });

  it("the discovery document lists both schemes for each paid route", async () => {
    const response = await fetch(`${server.url}/.well-known/x402`);
    const document = (await response.json()) as { items: { accepts: { scheme: string }[] }[] };
    expect(document.items).toHaveLength(2);
    for (const item of document.items) {
      expect(item.accepts.map((accept) => accept.scheme)).toEqual(["exact", "batch-settlement"]);
    }
  });

  it("pays 20 checks with one deposit transaction; every report is signed and recorded", async () => {
    const scheme = new ChannelClientScheme(toClientEvmSigner(payer, client), {
      voucherSigner: toClientEvmSigner(sessionKey),
      depositStrategy: () => deposit,
    });
    const pay = wrapFetchWithPayment(fetch, new x402Client().register(network, scheme));
    const nonceBefore = await facilitatorNonce();
    for (let check = 1; check <= checks; check += 1) {
      const response = await pay(`${server.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: target }),
      });
      expect(response.status, `check ${check}`).toBe(200);
      const location = response.headers.get(receiptLocationHeader) ?? "";
      receipts.push({
        nonce: location.split("/").at(-1) ?? "",
        body: await response.json(),
        signature: response.headers.get(reportSignatureHeader),
      });
    }
    // The deposit is the only transaction; the 19 vouchers cost none.
    expect(await facilitatorNonce()).toBe(nonceBefore + 1);
    expect(new Set(receipts.map((receipt) => receipt.nonce)).size).toBe(checks);
    for (const receipt of receipts) {
      const live = await verifyReportSignature({
        signature: receipt.signature,
        report: receipt.body,
        settlement: { transaction: receipt.nonce, network, payer: payer.address.toLowerCase() },
        key: stack.payments.attestation.current().key,
      });
      expect(live.type).toBe("verified");
      const record = await stack.records.byAuthorization({
        payer: payer.address,
        nonce: receipt.nonce,
      });
      expect(record).toMatchObject({ status: "pending", route: "/check", amount: String(price) });
      expect(record?.report).toEqual(receipt.body);
    }
    const [channel] = (await stack.payments.channels?.store.list()) ?? [];
    channelId = channel?.channelId as Hex;
    expect(channel?.chargedCumulativeAmount).toBe(String(BigInt(checks) * price));
    expect(await escrow(channelId)).toEqual([deposit, 0n]);
  });

  it("claims the 20 vouchers in one transaction and marks every record settled with it", async () => {
    const manager = stack.payments.channels?.manager();
    const claims = (await manager?.claim()) ?? [];
    expect(claims).toHaveLength(1);
    const claimTx = claims[0]?.transaction.toLowerCase();
    expect(await escrow(channelId)).toEqual([deposit, BigInt(checks) * price]);
    for (const receipt of receipts) {
      const record = await stack.records.byAuthorization({
        payer: payer.address,
        nonce: receipt.nonce,
      });
      expect(record).toMatchObject({ status: "settled", tx: claimTx });
    }
    await manager?.settle();
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToAtStart + BigInt(checks) * price);
  });

  it("serves every report to its payer through /receipts", async () => {
    for (const receipt of receipts) {
      const signature = await payer.signMessage({ message: receiptMessage(receipt.nonce) });
      const response = await fetch(
        `${server.url}/receipts/${payer.address.toLowerCase()}/${receipt.nonce}?signature=${signature}`,
      );
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        report: unknown;
        tx: string;
        signature: string;
      };
      expect(body.report).toEqual(receipt.body);
      // Every receipt carries its own report's signature, though all share one claim transaction.
      const verified = await verifyReportSignature({
        signature: body.signature,
        report: body.report,
        settlement: { transaction: body.tx, network, payer: payer.address.toLowerCase() },
        key: stack.payments.attestation.current().key,
      });
      expect(verified.type, receipt.nonce).toBe("verified");
    }
  });

  // The claim transaction settled all 20 checks: /receipts/{tx} used to answer whichever record
  // the store found first, a report of another address, signed as if that transaction paid it.
  it("does not take the shared claim transaction for one check's receipt: it points to /receipts/{payer}/{nonce}", async () => {
    const [first] = receipts;
    if (first === undefined) throw new Error("no check paid");
    const record = await stack.records.byAuthorization({
      payer: payer.address,
      nonce: first.nonce,
    });
    const claimTx = record?.tx ?? "";
    const signature = await payer.signMessage({ message: receiptMessage(claimTx) });
    const response = await fetch(`${server.url}/receipts/${claimTx}?signature=${signature}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("receipt_ambiguous");
    expect(body.error.message).toContain("/receipts/{payer}/{nonce}");
  });

  it("refunds the idle channel's rest; payer and payee balances equal what was claimed", async () => {
    const refunds =
      (await stack.payments.channels?.manager().refundIdleChannels({ idleSecs: 0 })) ?? [];
    expect(refunds).toHaveLength(1);
    const charged = BigInt(checks) * price;
    expect(await escrow(channelId)).toEqual([charged, charged]);
    expect(await stack.usdcBalance(payer.address)).toBe(payerAtStart - charged);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToAtStart + charged);
    expect(await stack.records.count("pending")).toBe(0);
  });
});
