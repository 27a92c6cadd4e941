import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  type CompleteSIWxInfo,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalRedis, startRedis } from "../../localServices/startRedis";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

// The sign-in state in a real Redis (REDIS_URL, as a fleet runs), killed here: a sign-in is then
// refused with a clear answer, never taken unchecked and never a 500.
describe("signInReread with the fleet's sign-in state in Redis", () => {
  let stack: PaidStack;
  let redis: LocalRedis;
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ address: target, chain: "base" }),
    });
  const http = () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    return new x402HTTPClient(client);
  };
  /** A payment for the check, from a fresh 402. */
  const payment = async () => {
    const client = http();
    const challenge = await post();
    const required = client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    return client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
  };
  /** A fresh challenge from a 402, signed by the payer, as the SIGN-IN-WITH-X header value. */
  const signIn = async () => {
    const challenge = await post();
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const extension = required.extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    const chain = extension.supportedChains[0];
    const info = { ...extension.info, chainId: chain?.chainId, type: chain?.type };
    return encodeSIWxHeader(
      await createSIWxPayload(info as CompleteSIWxInfo, payer, `${stack.publicUrl}/check`),
    );
  };

  beforeAll(async () => {
    redis = await startRedis();
    stack = await startPaidStack({ world: shared.world, env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  it("re-reads through Redis; with Redis down a sign-in alone gets 503 sign_in_unavailable, /receipts its 403 (the signature still reads), a payment is not held up by it", async () => {
    const paid = await post(await payment());
    expect(paid.status).toBe(200);
    const report = await paid.json();
    const tx = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "").transaction;
    const header = await signIn();
    const reread = await post({ [SIGN_IN_WITH_X]: header });
    expect(reread.status).toBe(200);
    expect(await reread.json()).toEqual(report);
    // The message is spent in Redis, where every replica looks.
    expect((await post({ [SIGN_IN_WITH_X]: header })).status).toBe(402);

    const fresh = await signIn();
    const paying = await payment();
    await redis.kill();
    try {
      const refused = await post({ [SIGN_IN_WITH_X]: fresh });
      expect(refused.status).toBe(503);
      const body = await refused.json();
      expect(body.error.code).toBe("sign_in_unavailable");
      expect(body.error.message).toMatch(/without SIGN-IN-WITH-X to pay/);
      expect(JSON.stringify(body)).not.toContain(redis.url);

      const receipt = await stack.app.request(`/receipts/${tx}`, {
        headers: { [SIGN_IN_WITH_X]: fresh },
      });
      expect(receipt.status).toBe(403);
      const proof = await payer.signMessage({ message: receiptMessage(tx) });
      const bySignature = await stack.app.request(`/receipts/${tx}?signature=${proof}`);
      expect(bySignature.status).toBe(200);
      expect((await bySignature.json()).report).toEqual(report);

      // With a payment the sign-in is set aside and the payment path answers (here the fleet's
      // lock store is down too: refused before anything is charged).
      const withPayment = await post({ [SIGN_IN_WITH_X]: fresh, ...paying });
      expect(withPayment.status).toBe(503);
      expect((await withPayment.json()).error.code).toBe("payment_record_unavailable");
    } finally {
      await redis.restart();
    }
  }, 30_000);
});
