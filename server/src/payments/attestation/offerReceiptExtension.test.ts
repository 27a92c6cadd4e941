import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import {
  type AttestationKey,
  AttestationKeySchema,
} from "@presend/shared/attestation/attestationSchemas";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  extractJWSHeader,
  extractOffersFromPaymentRequired,
  extractPublicKeyFromKid,
  extractReceiptFromResponse,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { exportJWK } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

describe("offer-receipt extension and the signed report (attestation key)", () => {
  let stack: PaidStack;
  let discoveryKey: AttestationKey;
  const appFetch = async (input: RequestInfo | URL, init?: RequestInit) =>
    stack.app.request(input instanceof Request ? input : new Request(input, init));

  beforeAll(async () => {
    stack = await startPaidStack({ world: shared.world });
    const doc = await (await stack.app.request("/.well-known/x402")).json();
    discoveryKey = AttestationKeySchema.parse(doc.attestation.key);
  });
  afterAll(() => stack?.stop());

  it.each([
    ["/check", "10000"],
    ["/deep", "50000"],
  ])(
    "signs an offer for %s in every 402 that verifies with the discovery key",
    async (path, amount) => {
      const response = await stack.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: target }),
      });
      const challenge = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
      const offers = extractOffersFromPaymentRequired(challenge);
      expect(offers).toHaveLength(1);
      const offer = offers[0] as JWSSignedOffer;
      const payload = await verifyOfferSignatureJWS(offer, discoveryKey);
      expect(payload).toMatchObject({
        resourceUrl: `${stack.publicUrl}${path}`,
        scheme: "exact",
        network: "eip155:8453",
        payTo: stack.world.accounts.payTo.address,
        amount,
      });
      // No key passed: the official function resolves the kid (a did:jwk) by itself, and the
      // key it names is the attestation's.
      expect(await verifyOfferSignatureJWS(offer)).toEqual(payload);
      const { kid } = extractJWSHeader(offer.signature);
      expect(kid).toMatch(/^did:jwk:[\w-]+#0$/);
      expect(await exportJWK(await extractPublicKeyFromKid(kid ?? ""))).toMatchObject({
        x: discoveryKey.x,
        y: discoveryKey.y,
      });
    },
  );

  it("signs the offers of the 402 that refuses a payment too (only the unsent one is left unsigned)", async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const post = (headers: Record<string, string> = {}) =>
      stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ address: target }),
      });
    const challenge = decodePaymentRequiredHeader(
      (await post()).headers.get("payment-required") ?? "",
    );
    const payload = await client.createPaymentPayload(challenge);
    // Another payTo than the route asks: refused, and core answers a 402 built again with the reason.
    const refusedPayload = {
      ...payload,
      accepted: { ...payload.accepted, payTo: shared.world.accounts.payer.address },
    };
    const refused = await post({
      "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(refusedPayload),
    });
    expect(refused.status).toBe(402);
    const answer = decodePaymentRequiredHeader(refused.headers.get("payment-required") ?? "");
    expect(answer.error).toBeTruthy();
    const [offer] = extractOffersFromPaymentRequired(answer);
    expect(await verifyOfferSignatureJWS(offer as JWSSignedOffer, discoveryKey)).toMatchObject({
      scheme: "exact",
      resourceUrl: `${stack.publicUrl}/check`,
    });
  });

  it("signs a receipt in the PAYMENT-RESPONSE and the report with its settlement; /receipts re-signs the same", async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const response = await wrapFetchWithPayment(appFetch, client)(`${stack.publicUrl}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    expect(response.status).toBe(200);
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "");
    const receipt = extractReceiptFromResponse(response) as JWSSignedReceipt;
    const receiptPayload = await verifyReceiptSignatureJWS(receipt, discoveryKey);
    expect(receiptPayload).toMatchObject({
      network: "eip155:8453",
      payer: payer.address,
      transaction: settlement.transaction,
    });

    const report = await response.json();
    const signed = {
      transaction: settlement.transaction,
      network: settlement.network,
      payer: settlement.payer ?? "",
    };
    const key = discoveryKey;
    const signature = response.headers.get(reportSignatureHeader);
    expect(await verifyReportSignature({ signature, report, settlement: signed, key })).toEqual({
      type: "verified",
      kid: discoveryKey.kid,
    });
    // One changed fact, an earlier checkedAt or another settlement: the signature no longer holds.
    for (const forged of [
      {
        report: { ...report, verdict: { ...report.verdict, headline: "Safe" } },
        settlement: signed,
      },
      { report: { ...report, checkedAt: "2020-01-01T00:00:00.000Z" }, settlement: signed },
      { report, settlement: { ...signed, transaction: `0x${"1".repeat(64)}` } },
    ]) {
      const result = await verifyReportSignature({ signature, key, ...forged });
      expect(result).toMatchObject({ type: "forged", reason: "bad_signature" });
    }

    const tx = settlement.transaction;
    const proof = await payer.signMessage({ message: receiptMessage(tx) });
    const stored = await (await stack.app.request(`/receipts/${tx}?signature=${proof}`)).json();
    expect(stored.report).toEqual(report);
    expect(
      await verifyReportSignature({
        signature: stored.signature,
        report: stored.report,
        settlement: signed,
        key,
      }),
    ).toMatchObject({ type: "verified" });
  });
});
