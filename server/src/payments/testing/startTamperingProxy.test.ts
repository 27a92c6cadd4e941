import {
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PinRecord,
  type PresendClientOptions,
} from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import {
  type AttestationBlock,
  AttestationKeySchema,
  attestationExtensionKey,
} from "@presend/shared/attestation/attestationSchemas";
import { chains } from "@presend/shared/chains/chains";
import type { PaymentRequired } from "@x402/core/types";
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../http/freePort";
import { type Listening, listen } from "../../http/listen";
import { type PaidStack, startPaidStack } from "./startPaidStack";
import { rewriteChallenge, startTamperingProxy, type TamperingProxy } from "./startTamperingProxy";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const attacker = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("the presend client's policy against the real server behind a tampering proxy", () => {
  let stack: PaidStack;
  let server: Listening;
  let proxy: TamperingProxy;
  let realPin: PinRecord;

  const client = (options: Partial<PresendClientOptions> = {}) =>
    createPresendClient({
      url: proxy.url,
      signer: payer,
      pinStore: createMemoryPinStore({ [new URL(proxy.url).origin]: realPin }),
      ...options,
    });
  const challenge = (change: (accepts: PaymentRequired["accepts"][number]) => object) => ({
    after: (_request: unknown, upstream: Response) =>
      rewriteChallenge(upstream, (pr) => ({
        ...pr,
        accepts: pr.accepts.map((r) => ({ ...r, ...change(r) })),
      })),
  });

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
    proxy = await startTamperingProxy(server.url);
    // The key a client pinned on an earlier, untampered first use.
    const doc = await (await fetch(`${server.url}/.well-known/x402`)).json();
    const jwk = AttestationKeySchema.parse(doc.attestation.key);
    realPin = {
      jwk,
      fingerprint: await calculateJwkThumbprint(jwk, "sha256"),
      pinnedAt: new Date().toISOString(),
      apiUrl: new URL(proxy.url).origin,
    };
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    await stack?.stop();
  });
  beforeEach(() => proxy.set(null));

  // Every refusal: nothing signed reaches the server and the payer's balance does not move.
  const expectRefused = async (run: () => Promise<{ type: string }>, code: string) => {
    const forwardedBefore = proxy.paymentsForwarded();
    const before = await stack.usdcBalance(payer.address);
    const result = await run();
    expect(result).toMatchObject({ type: "refused", code, charged: false });
    expect(proxy.paymentsForwarded()).toBe(forwardedBefore);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
  };

  it("pays through a faithful proxy: report, settlement, signature and receipt verified", async () => {
    const before = await stack.usdcBalance(payer.address);
    const forwardedBefore = proxy.paymentsForwarded();
    const events: string[] = [];
    const result = await client({ onEvent: (e) => events.push(e.type) }).check({ address: target });
    expect(result).toMatchObject({
      type: "report",
      charged: true,
      signature: "verified",
      receipt: "verified",
      recovered: false,
    });
    expect(events).toEqual(["verified", "paying", "settled"]);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    // The count every refusal below relies on: the one paid request is counted, once.
    expect(proxy.paymentsForwarded()).toBe(forwardedBefore + 1);
  });

  it("refuses a substituted attestation key (key changed), re-signed by an attacker for their payTo", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const forgedKey = {
      ...(await exportJWK(publicKey)),
      alg: "ES256",
      use: "sig",
      kid: realPin.jwk.kid,
    };
    const now = Math.floor(Date.now() / 1000);
    const jws = await new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({
          payTo: attacker,
          maxPrice: { "/check": "10000", "/deep": "50000" },
          iat: now,
          exp: now + 3600,
        }),
      ),
    )
      .setProtectedHeader({ alg: "ES256", kid: realPin.jwk.kid })
      .sign(privateKey);
    const block = { jws, key: forgedKey, note: "forged" } as AttestationBlock;
    proxy.set({
      after: (_request, upstream) =>
        rewriteChallenge(upstream, (pr) => ({
          ...pr,
          accepts: pr.accepts.map((r) => ({ ...r, payTo: attacker })),
          extensions: { ...pr.extensions, [attestationExtensionKey]: { info: block } },
        })),
    });
    await expectRefused(() => client().check({ address: target }), "key_changed");
  });

  it("refuses another payTo than the attested one", async () => {
    proxy.set(challenge(() => ({ payTo: attacker })));
    await expectRefused(() => client().check({ address: target }), "payto_mismatch");
  });

  it("refuses a price above the attested maximum", async () => {
    proxy.set(challenge(() => ({ amount: "20000" })));
    await expectRefused(() => client().check({ address: target }), "price_above_attested");
  });

  it("refuses a price the signed offer does not name (a lower one too)", async () => {
    proxy.set(challenge(() => ({ amount: "9000" })));
    await expectRefused(() => client().check({ address: target }), "offer_invalid");
  });

  it("refuses a price above the caller's maxPrice", async () => {
    await expectRefused(
      () => client({ maxPrice: 5_000n }).check({ address: target }),
      "over_max_price",
    );
  });

  it("refuses another network than Base (Ethereum mainnet)", async () => {
    proxy.set(challenge(() => ({ network: "eip155:1" })));
    await expectRefused(() => client().check({ address: target }), "network_mismatch");
  });

  it("refuses another asset than Base USDC (Ethereum's USDC address)", async () => {
    proxy.set(challenge(() => ({ asset: chains.ethereum.usdc.address })));
    await expectRefused(() => client().check({ address: target }), "asset_mismatch");
  });

  it("refuses an authorization valid for ten years (maxTimeoutSeconds over 300)", async () => {
    proxy.set(challenge(() => ({ maxTimeoutSeconds: 10 * 365 * 24 * 3600 })));
    await expectRefused(() => client().check({ address: target }), "validity_too_long");
  });

  it("refuses to follow a redirect of the challenge to another origin", async () => {
    const elsewhere = await listen(
      { fetch: () => new Response("stolen", { status: 200 }) },
      { port: 0 },
    );
    proxy.set({
      before: () =>
        new Response(null, { status: 307, headers: { location: `${elsewhere.url}/check` } }),
    });
    await expectRefused(() => client().check({ address: target }), "redirect");
    await elsewhere.close();
  });

  it("never follows a redirect with a payment: the paid request's 307 is not followed and the outcome is unknown", async () => {
    let hits = 0;
    const elsewhere = await listen(
      {
        fetch: () => {
          hits++;
          return new Response("stolen");
        },
      },
      { port: 0 },
    );
    proxy.set({
      before: (request) =>
        request.headers.has("payment-signature")
          ? new Response(null, { status: 307, headers: { location: `${elsewhere.url}/check` } })
          : undefined,
    });
    const result = await client().check({ address: target });
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    expect(hits).toBe(0);
    await elsewhere.close();
  });

  it("refuses over the spend cap, counting a check under way", async () => {
    const cap = createSessionSpendCap(15_000n);
    const reserved = await cap.reserve(10_000n);
    expect(reserved.type).toBe("reserved");
    await expectRefused(() => client({ spendCap: cap }).check({ address: target }), "cap_reached");
  });

  it("shows a report whose body was altered as forged (charged), never as trusted", async () => {
    proxy.set({
      after: async (request, upstream) => {
        if (!request.headers.has("payment-signature") || upstream.status !== 200) return upstream;
        const report = await upstream.json();
        const altered = {
          ...report,
          verdict: { ...report.verdict, level: "ok", headline: "Safe to send" },
        };
        return new Response(JSON.stringify(altered), { status: 200, headers: upstream.headers });
      },
    });
    const result = await client().check({ address: target });
    expect(result).toMatchObject({ type: "forged", charged: true });
  });

  it("recovers through /receipts when the report arrives cut off after settlement (charged, then recovered)", async () => {
    proxy.set({
      after: async (request, upstream) => {
        if (!request.headers.has("payment-signature") || upstream.status !== 200) return upstream;
        const text = await upstream.text();
        return new Response(text.slice(0, 40), { status: 200, headers: upstream.headers });
      },
    });
    const events: string[] = [];
    const result = await client({ onEvent: (e) => events.push(e.type) }).check({ address: target });
    expect(result).toMatchObject({
      type: "report",
      recovered: true,
      signature: "verified",
      charged: true,
    });
    expect(events).toEqual(["verified", "paying", "settled", "recovering"]);
  });

  it("recovers by payer and authorization nonce when the answer is dropped after settlement", async () => {
    const before = await stack.usdcBalance(payer.address);
    proxy.set({
      after: async (request, upstream) =>
        request.headers.has("payment-signature") ? "drop" : upstream,
    });
    const events: string[] = [];
    const result = await client({ onEvent: (e) => events.push(e.type) }).check({ address: target });
    expect(result).toMatchObject({
      type: "report",
      recovered: true,
      signature: "verified",
      charged: true,
    });
    expect(events).toEqual(["verified", "paying", "recovering"]);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("says charged: unknown, naming the authorization, when neither the answer nor the receipt gets through", async () => {
    const before = await stack.usdcBalance(payer.address);
    proxy.set({
      after: async (request, upstream) =>
        request.headers.has("payment-signature") || request.path.startsWith("/receipts")
          ? "drop"
          : upstream,
    });
    const result = await client().check({ address: target });
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    if (result.type === "unrecovered") {
      expect(result.authorization.payer).toBe(payer.address);
      expect(result.authorization.nonce).toMatch(/^0x[0-9a-f]{64}$/);
      expect(result.recover).toContain(`/receipts/${payer.address}/${result.authorization.nonce}`);
      // Asked while receipts still do not get through: the lookup cannot say "not charged".
      expect(await client().receipt(result.authorization)).toMatchObject({
        type: "receipt_unavailable",
        charged: "unknown",
      });
      // The receipt is there for whoever asks past the fault.
      proxy.set(null);
      expect(await client().receipt(result.authorization)).toMatchObject({
        type: "report",
        recovered: true,
      });
    }
    // It did settle: the client was right not to say "not charged".
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });
});
