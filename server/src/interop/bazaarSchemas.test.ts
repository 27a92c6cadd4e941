import { demoAccounts, devnetAccounts, senderWorld } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { type DiscoveryExtension, validateDiscoveryExtension } from "@x402/extensions/bazaar";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// A cataloguing facilitator or an agent trusts the 402's bazaar declaration to say what a request
// looks like and what comes back. The package's own validator, run with the real request and
// the real paid answer in place of the declared example, must accept them: reports of every
// shape (a sender's history, another chain, a listed scam, five chains) fit the declared schema.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const sender = devnetAccounts.poisoningVictim.address;

const requests = [
  ["/check", { address: senderWorld.freshLookalike, from: sender }],
  ["/check", { address: devnetAccounts.listedScam.address, chain: "base" }],
  ["/deep", { address: devnetAccounts.exchangeDeposit.address, chain: "ethereum" }],
  ["/deep", { address: demoAccounts.usedSafeOnBase, from: sender }],
] as const;

describe("the bazaar declaration against real requests and paid answers", () => {
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

  it.each(requests)("%s %o: the request and its paid report validate", async (path, body) => {
    const init = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    };
    const challenge = await fetch(`${server.url}${path}`, init);
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const declared = required.extensions?.bazaar as DiscoveryExtension;

    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const paid = await wrapFetchWithPayment(fetch, client)(`${server.url}${path}`, init);
    expect(paid.status).toBe(200);
    const report = await paid.json();

    const real = {
      ...declared,
      info: {
        input: { type: "http", method: "POST", bodyType: "json", body },
        output: { type: "json", example: report },
      },
    } as DiscoveryExtension;
    expect(validateDiscoveryExtension(real)).toEqual({ valid: true });
    // The validator is not a rubber stamp: a report without its verdict does not fit.
    const { verdict: _verdict, ...withoutVerdict } = report;
    const broken = {
      ...real,
      info: { ...real.info, output: { type: "json", example: withoutVerdict } },
    } as DiscoveryExtension;
    expect(validateDiscoveryExtension(broken).valid).toBe(false);
  });
});
