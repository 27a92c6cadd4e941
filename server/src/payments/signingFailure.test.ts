import { createMemoryPinStore, createPresendClient, createSessionSpendCap } from "@presend/client";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportSigner } from "./attestation/createReportSigner";
import { receiptLocationHeader } from "./resourceServer/paymentLedger";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// The report's signature fails once the payer was charged (the attestation key's signer throws:
// a boundary fake around the real signer, on a real paid request over the local chain). The payer
// must hear that it was charged and where its report is kept, never a 500 ("nothing was
// charged"), and /receipts then serves the report, signed, charged once.
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const body = { address: devnetAccounts.activeOnBase.address };

describe("a report signature that fails after the charge", () => {
  let stack: PaidStack;
  /** Signatures still to fail (each failing call takes one). */
  let failing = 0;
  const failingOnce =
    (sign: ReportSigner): ReportSigner =>
    async (report, settlement) => {
      if (failing > 0) {
        failing -= 1;
        throw new Error("the attestation key could not sign");
      }
      return sign(report, settlement);
    };
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const verified = (report: unknown, signature: string, settlement: Parameters<ReportSigner>[1]) =>
    verifyReportSignature({
      signature,
      report,
      settlement,
      key: stack.payments.attestation.current().key,
    });

  beforeAll(async () => {
    stack = await startPaidStack({ world, receiverAuthorizerKey, wrapReportSigner: failingOnce });
  });
  afterAll(() => stack?.stop());

  it("exact: 502 settlement_unknown naming the settlement and the receipt; /receipts then serves the report, charged once", async () => {
    const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-signing-exact`));
    await fund(payer.address, 3n * price);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const http = new x402HTTPClient(client);
    const offer = decodePaymentRequiredHeader((await post()).headers.get("payment-required") ?? "");
    const payload = await client.createPaymentPayload({
      ...offer,
      accepts: offer.accepts.filter((accept) => accept.scheme === "exact"),
    });
    const nonce = (payload.payload as { authorization: { nonce: string } }).authorization.nonce;
    const payToBefore = await stack.usdcBalance(lane.payTo.address);

    failing = 1;
    const answer = await post(http.encodePaymentSignatureHeader(payload));
    expect(failing).toBe(0);
    expect(answer.status).toBe(502);
    const location = `${stack.publicUrl}/receipts/${payer.address.toLowerCase()}/${nonce.toLowerCase()}`;
    expect(answer.headers.get(receiptLocationHeader)).toBe(location);
    expect(await answer.json()).toEqual({
      error: {
        code: "settlement_unknown",
        message: expect.stringContaining(`Your payment was charged`),
      },
    });
    const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    // Charged once, on chain and in the record.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);
    expect(await stack.usdcBalance(payer.address)).toBe(2n * price);
    const record = await stack.records.byAuthorization({ payer: payer.address, nonce });
    expect(record).toMatchObject({ status: "settled", tx: settlement.transaction });

    const proof = await payer.signMessage({ message: receiptMessage(nonce.toLowerCase()) });
    const fetched = await stack.app.request(`${location}?signature=${proof}`);
    expect(fetched.status).toBe(200);
    const receipt = await fetched.json();
    expect(receipt).toMatchObject({ tx: settlement.transaction, report: record?.report });
    expect(
      await verified(receipt.report, receipt.signature, {
        transaction: settlement.transaction,
        network,
        payer: payer.address,
      }),
    ).toMatchObject({ type: "verified" });
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);
  });

  it("@presend/client reads that 502 (a settlement named on a non-200) as charged and fetches the report back, verified, spent once", async () => {
    const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-signing-client`));
    await fund(payer.address, 3n * price);
    const spendCap = createSessionSpendCap(10n * price);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      spendCap,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    failing = 1;
    const result = await client.check(body);
    expect(failing).toBe(0);
    expect(result).toMatchObject({ type: "report", signature: "verified", charged: true });
    expect(spendCap.spent()).toBe(price);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + price);
  });

  it("channel: a charged voucher whose report cannot be signed is a 502 naming the receipt; once claimed, /receipts serves it", async () => {
    const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-signing-channel`));
    const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-signing-session`));
    await fund(payer.address, 3n * price);
    const chain = devnetClient("base", world.chains.base.rpcUrl);
    const http = new x402HTTPClient(
      new x402Client().register(
        network,
        new ChannelClientScheme(toClientEvmSigner(payer, chain), {
          voucherSigner: toClientEvmSigner(session),
          depositStrategy: () => 3n * price,
        }),
      ),
    );
    const pay = async () => {
      const challenge = await post();
      const payload = await http.createPaymentPayload(
        http.getPaymentRequiredResponse(
          (name) => challenge.headers.get(name),
          await challenge.json(),
        ),
      );
      const answer = await post(http.encodePaymentSignatureHeader(payload));
      await http.processPaymentResult(payload, (name) => answer.headers.get(name), answer.status);
      return answer;
    };
    expect((await pay()).status).toBe(200);
    const recordsBefore = await stack.records.count();

    failing = 1;
    const answer = await pay();
    expect(failing).toBe(0);
    expect(answer.status).toBe(502);
    expect((await answer.json()).error).toMatchObject({ code: "settlement_unknown" });
    const location = answer.headers.get(receiptLocationHeader) ?? "";
    expect(location).toMatch(/\/receipts\/0x[0-9a-f]{40}\/0x[0-9a-f]{64}$/);
    const nonce = location.split("/").at(-1) ?? "";
    // Charged: recorded as the channel's next charge, then settled by the claim that covers it.
    expect(await stack.records.count()).toBe(recordsBefore + 1);
    // The channel's state came with the 502: the payer's next voucher follows the charged one.
    expect((await pay()).status).toBe(200);
    await stack.payments.channels?.manager().claim();
    const proof = await payer.signMessage({ message: receiptMessage(nonce) });
    const fetched = await stack.app.request(`${location}?signature=${proof}`);
    expect(fetched.status).toBe(200);
    const receipt = await fetched.json();
    expect(receipt.report).toMatchObject({ address: body.address });
    expect(
      await stack.records.byAuthorization({ payer: payer.address.toLowerCase(), nonce }),
    ).toMatchObject({ status: "settled" });
  });
});
