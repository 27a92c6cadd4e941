import { devnetClient } from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { appendPaymentIdentifierToExtensions } from "@x402/extensions/payment-identifier";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { type Hex, type PrivateKeyAccount, parseAbi } from "viem";
import { expect } from "vitest";
import type { PaidStack } from "./startPaidStack";

const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);

/**
 * One payer's `exact` payments for POST /check with `body` against a paid stack (`stack()`, as
 * the test's beforeAll set it), signed by the official client: the request, a fresh signed
 * payment (with a payment id when given) and its nonce, and whether Base shows that nonce used.
 * @example const { post, signed, used } = exactPayments(() => stack, payer, { address, chain: "base" });
 */
export function exactPayments(stack: () => PaidStack, payer: PrivateKeyAccount, body: unknown) {
  const post = (headers: Record<string, string> = {}) =>
    stack().app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const signed = async (paymentId?: string) => {
    const x402 = new x402Client();
    registerExactEvmScheme(x402, { signer: toClientEvmSigner(payer) });
    const http = new x402HTTPClient(x402);
    const challenge = await post();
    expect(challenge.status).toBe(402);
    const required = http.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    if (paymentId) appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
    const payload = await http.createPaymentPayload(required);
    const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
    return { headers: http.encodePaymentSignatureHeader(payload), nonce };
  };
  const used = (nonce: Hex) =>
    devnetClient("base", stack().world.chains.base.rpcUrl).readContract({
      address: chains.base.usdc.address,
      abi: eip3009,
      functionName: "authorizationState",
      args: [payer.address, nonce],
    });
  return { post, signed, used };
}
