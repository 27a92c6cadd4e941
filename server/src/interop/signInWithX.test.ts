import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  type CompleteSIWxInfo,
  createSIWxClientHook,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// The official Sign-In-With-X client hook on the official fetch client: the same request twice
// pays once; the second is answered from the payment's record after the wallet signs in.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

describe("@x402/extensions/sign-in-with-x (createSIWxClientHook) with @x402/fetch", () => {
  let stack: PaidStack;
  const sent: Request[] = [];
  const appFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push(request.clone());
    return stack.app.request(request);
  };
  const check = (body: unknown, wallet = payer) => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(wallet) });
    const http = new x402HTTPClient(client).onPaymentRequired(createSIWxClientHook(wallet));
    return wrapFetchWithPayment(appFetch, http)(`${stack.publicUrl}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  };
  /** A fresh challenge from a 402, signed by `wallet`, as the SIGN-IN-WITH-X header value. */
  const signIn = async (wallet = payer) => {
    const challenge = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const extension = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    const chain = extension.supportedChains[0];
    const info = { ...extension.info, chainId: chain?.chainId, type: chain?.type };
    const payload = await createSIWxPayload(
      info as CompleteSIWxInfo,
      wallet,
      `${stack.publicUrl}/check`,
    );
    return encodeSIWxHeader(payload);
  };

  beforeAll(async () => {
    stack = await startPaidStack({ world: shared.world });
  });
  afterAll(() => stack?.stop());

  it("offers sign-in-with-x in every 402, bound to the API's origin and the payment network", async () => {
    const response = await stack.app.request("/deep", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    const required = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
    const extension = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    expect(extension.info).toMatchObject({
      domain: "presend.test",
      uri: `${stack.publicUrl}/deep`,
    });
    expect(extension.supportedChains).toEqual([{ chainId: "eip155:8453", type: "eip191" }]);
    expect(extension.schema).toBeDefined();
  });

  it("pays once for the same request sent twice; the second is the recorded report, signed in", async () => {
    const before = await stack.usdcBalance(payer.address);
    const first = await check({ address: target });
    expect(first.status).toBe(200);
    const report = await first.json();
    const paid = decodePaymentResponseHeader(first.headers.get("payment-response") ?? "");
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);

    sent.length = 0;
    const again = await check({ address: target.toLowerCase(), chain: "base" });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(report);
    // The settlement the payment was first answered with, the payer as it was named then.
    expect(decodePaymentResponseHeader(again.headers.get("payment-response") ?? "")).toMatchObject({
      success: true,
      transaction: paid.transaction,
      network: paid.network,
      payer: paid.payer,
    });
    expect(again.headers.get("presend-report-signature")).toBeTruthy();
    // Challenge, then the signed-in request: no payment was sent, nothing charged.
    expect(sent.map((request) => request.headers.has(SIGN_IN_WITH_X))).toEqual([false, true]);
    expect(sent.some((request) => request.headers.has("payment-signature"))).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("does not take a replayed sign-in, another wallet's, or one for a request not paid for", async () => {
    const header = await signIn();
    const post = (body: unknown, signInHeader: string) =>
      stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", [SIGN_IN_WITH_X]: signInHeader },
        body: JSON.stringify(body),
      });
    expect((await post({ address: target }, header)).status).toBe(200);
    expect((await post({ address: target }, header)).status).toBe(402);
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect((await post({ address: target }, await signIn(stranger))).status).toBe(402);
    expect((await post({ address: payer.address }, await signIn())).status).toBe(402);
    expect((await post({ address: target, chain: "ethereum" }, await signIn())).status).toBe(402);
    // A report made without a sender cannot answer the poisoning check of one.
    const sender = devnetAccounts.poisoningVictim.address;
    expect((await post({ address: target, from: sender }, await signIn())).status).toBe(402);
  });

  it("reads /receipts/{tx} signed in, without the old signature parameter", async () => {
    const first = await check({ address: target });
    const tx = decodePaymentResponseHeader(first.headers.get("payment-response") ?? "").transaction;
    const unsigned = await stack.app.request(`/receipts/${tx}`);
    expect(unsigned.status).toBe(403);
    const header = await signIn();
    const receipt = await stack.app.request(`/receipts/${tx}`, {
      headers: { [SIGN_IN_WITH_X]: header },
    });
    expect(receipt.status).toBe(200);
    expect((await receipt.json()).report).toEqual(await first.json());
    // The same signed message does not open it twice, nor does another wallet's.
    expect(
      (await stack.app.request(`/receipts/${tx}`, { headers: { [SIGN_IN_WITH_X]: header } }))
        .status,
    ).toBe(403);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const foreign = await stack.app.request(`/receipts/${tx}`, {
      headers: { [SIGN_IN_WITH_X]: await signIn(stranger) },
    });
    expect(foreign.status).toBe(403);
  });
});
