import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  isJWSSignedOffer,
  isJWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// The offer-receipt client functions as a buyer runs them, with no key configured: the kid in
// each JWS names the key (a did:jwk), so verification needs nothing from presend or any host.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);

describe("@x402/extensions/offer-receipt verify functions (no key passed) against the running stack", () => {
  let stack: PaidStack;
  let server: Listening;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("verifies the signed offer before paying and the receipt after, and the receipt matches the offer", async () => {
    const url = `${server.url}/check`;
    const init = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
    };
    const challenge = await fetch(url, init);
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const [offer] = extractOffersFromPaymentRequired(required);
    if (offer === undefined || !isJWSSignedOffer(offer)) throw new Error("no JWS offer");
    const terms = await verifyOfferSignatureJWS(offer);
    expect(terms).toMatchObject({
      resourceUrl: url,
      network: "eip155:8453",
      payTo: stack.world.accounts.payTo.address,
      amount: "10000",
    });
    // The offer's key is the one the discovery document attests.
    const doc = await (await fetch(`${server.url}/.well-known/x402`)).json();
    const attestedKey = { ...doc.attestation.key, kid: undefined };
    const forged = { ...offer, signature: offer.signature.replace(/.{4}$/, "AAAA") };
    await expect(verifyOfferSignatureJWS(forged)).rejects.toThrow();
    await expect(verifyOfferSignatureJWS(offer, attestedKey)).resolves.toEqual(terms);

    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const paid = await wrapFetchWithPayment(fetch, client)(url, init);
    expect(paid.status).toBe(200);
    const receipt = extractReceiptFromResponse(paid);
    if (receipt === undefined || !isJWSSignedReceipt(receipt)) throw new Error("no JWS receipt");
    const receiptTerms = await verifyReceiptSignatureJWS(receipt);
    expect(receiptTerms).toMatchObject({ payer: payer.address, network: "eip155:8453" });
    const [decoded] = decodeSignedOffers([offer]);
    if (decoded === undefined) throw new Error("offer not decoded");
    expect(verifyReceiptMatchesOffer(receipt, decoded, [payer.address])).toBe(true);
  });
});
