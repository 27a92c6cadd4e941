import { devnetAccounts, devnetClient } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  type DiscoveryExtension,
  extractDiscoveryInfoFromExtension,
  validateDiscoveryExtension,
} from "@x402/extensions/bazaar";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { x402Client } from "@x402/fetch";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maxPaymentHeaderBytes } from "../intake/paymentHeaderOf";
import { exampleRequest } from "../paidRoutes";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { discoveryExtension } from "./discoveryExtension";

describe("discoveryExtension (official bazaar extension)", () => {
  let stack: PaidStack;
  // As `npm start` runs: channels offered beside exact, so every 402 names two payments (two
  // accepts, two signed offers) and a channel's first payment carries a deposit.
  let offering: PaidStack;
  beforeAll(async () => {
    // 402s only, nothing paid: the run's shared world. A public URL as long as a real one: it is
    // repeated in the 402 (resource, signed offer, sign-in challenge) and in the payment header.
    const publicUrl = "https://api.presend-checks.example.com";
    stack = await startPaidStack({ world: sharedWorld(), publicUrl });
    offering = await startPaidStack({ world: sharedWorld(), publicUrl, channels: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await offering?.stop();
  });

  it.each(["/check", "/deep"] as const)(
    "declares %s in every 402, valid under the package's own validator",
    async (path) => {
      const response = await stack.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
      });
      expect(response.status).toBe(402);
      const header = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
      const extension = header.extensions?.bazaar as DiscoveryExtension;
      expect(validateDiscoveryExtension(extension)).toEqual({ valid: true });
      const info = extractDiscoveryInfoFromExtension(extension, true);
      expect(info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json" });
      expect(info.input).toMatchObject({ body: { address: expect.stringMatching(/^0x/) } });
      const body = await response.json();
      expect(body.extensions.bazaar).toEqual(extension);
      // The catalogue learns the report's shape: the verdict and its level.
      expect(JSON.stringify(extension.schema)).toContain('"level"');
    },
  );

  it("declares an example body the API accepts: sent unpaid, it gets the 402, not a 400", async () => {
    // The example as a cataloguing facilitator reads it: from a live 402.
    const challenge = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
    });
    const header = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const declared = header.extensions?.bazaar as DiscoveryExtension;
    const { body } = extractDiscoveryInfoFromExtension(declared, true).input as { body: unknown };
    expect(body).toEqual(exampleRequest);
    expect(getAddress(exampleRequest.address)).toBe(exampleRequest.address);
    const response = await stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(402);
  });

  it.each(["/check", "/deep"])(
    "keeps %s's payment header, which echoes every extension of the 402, under the accepted size",
    async (path) => {
      const response = await stack.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
      });
      const required = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
      // The 402 itself, every extension in its PAYMENT-REQUIRED, must leave room under the 16 KB
      // of response headers Node's fetch reads for what a proxy adds, and for a PAYMENT-RESPONSE
      // beside it once a settlement failed.
      const responseHeaderBytes = [...response.headers].reduce(
        (sum, [name, value]) => sum + name.length + value.length + 4,
        0,
      );
      expect(responseHeaderBytes).toBeLessThan(15 * 1024);
      const client = new x402Client();
      const payer = privateKeyToAccount(generatePrivateKey());
      registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
      // With a payment id, as @presend/client sends one with every paid call.
      const extensions = { ...required.extensions };
      appendPaymentIdentifierToExtensions(extensions, generatePaymentId());
      const payload = await client.createPaymentPayload({ ...required, extensions });
      const payment = encodePaymentSignatureHeader(payload);
      // What the official client sends back must pass the envelope's size check, with room
      // left under Node's 16 KB limit on all request headers together.
      expect(payment.length).toBeLessThan(maxPaymentHeaderBytes);
    },
  );

  it.each(["/check", "/deep"])(
    "keeps %s's 402 and what the official clients pay it with under the accepted sizes where channels are offered",
    async (path) => {
      const response = await offering.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
      });
      const responseHeaderBytes = [...response.headers].reduce(
        (sum, [name, value]) => sum + name.length + value.length + 4,
        0,
      );
      expect(responseHeaderBytes).toBeLessThan(15 * 1024);
      const required = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
      expect(required.accepts.map((a) => a.scheme)).toEqual(["exact", "batch-settlement"]);
      const extensions = { ...required.extensions };
      appendPaymentIdentifierToExtensions(extensions, generatePaymentId());
      const only = (scheme: string): PaymentRequired => ({
        ...required,
        extensions,
        accepts: required.accepts.filter((a) => a.scheme === scheme),
      });
      const payer = privateKeyToAccount(generatePrivateKey());
      const exact = new x402Client();
      registerExactEvmScheme(exact, { signer: toClientEvmSigner(payer) });
      // A channel's first payment: the wallet's deposit authorization and the first voucher.
      const chain = devnetClient("base", offering.world.chains.base.rpcUrl);
      const channel = new x402Client().register(
        "eip155:8453",
        new ChannelClientScheme(toClientEvmSigner(payer, chain), {
          voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
          depositStrategy: () => 10n * BigInt(required.accepts[0]?.amount ?? 0),
        }),
      );
      for (const payload of [
        await exact.createPaymentPayload(only("exact")),
        await channel.createPaymentPayload(only("batch-settlement")),
      ]) {
        expect(encodePaymentSignatureHeader(payload).length).toBeLessThan(maxPaymentHeaderBytes);
      }
    },
  );

  it("rejects a broken declaration (the validator is not a rubber stamp)", () => {
    const declared = discoveryExtension("/check").bazaar as DiscoveryExtension;
    const broken = { ...declared, info: { input: { type: "http", bodyType: "xml" } } };
    expect(validateDiscoveryExtension(broken as unknown as DiscoveryExtension).valid).toBe(false);
  });
});
