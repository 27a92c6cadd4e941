import {
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PresendSigner,
} from "@presend/client";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// @presend/client paying over a channel against the paid API on a payment lane of the shared
// world: deposits sized by the client (default ten checks) and reserved whole in the spend cap,
// vouchers by a session key, reports verified against the record nonce the client computes,
// fetched back through /receipts; a channel offer that differs from the attested terms and a
// deposit beyond the spend cap are refused before anything is sent.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-client-channel-payer`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-client-session`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;

describe("@presend/client over a batch-settlement channel", () => {
  let stack: PaidStack;
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  let signatures = 0;
  const signer: PresendSigner = {
    address: wallet.address,
    signTypedData: (typedData) => {
      signatures += 1;
      return wallet.signTypedData(typedData as never);
    },
    signMessage: (args) => wallet.signMessage(args),
  };
  const facilitatorNonce = () => chain.getTransactionCount({ address: lane.facilitator.address });
  const viaStack = async (input: RequestInfo | URL, init?: RequestInit) =>
    stack.app.request(input instanceof Request ? input : new Request(input, init));

  beforeAll(async () => {
    stack = await startPaidStack({ world, receiverAuthorizerKey });
    await fund(wallet.address, 100n * price);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("pays 12 checks with two wallet signatures (deposits of ten checks), each reserved whole", async () => {
    const cap = createSessionSpendCap(1_000_000n);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer,
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: viaStack,
      channel: { voucherSigner: toClientEvmSigner(session) },
    });
    const nonceBefore = await facilitatorNonce();
    signatures = 0;
    const nonces: string[] = [];
    for (let check = 1; check <= 12; check += 1) {
      const result = await client.check({ address: target });
      expect(result, `check ${check}`).toMatchObject({
        type: "report",
        signature: "verified",
        charged: true,
        settlement: { viaChannel: true, payer: wallet.address },
      });
      if (result.type === "report") nonces.push(result.settlement.transaction);
    }
    expect(signatures).toBe(2);
    expect(cap.spent()).toBe(20n * price);
    expect(await facilitatorNonce()).toBe(nonceBefore + 2);
    // The record nonce the client computed is the one the server recorded the report under.
    const last = nonces.at(-1) ?? "";
    const proof = await wallet.signMessage({ message: receiptMessage(last) });
    const stored = await viaStack(
      `${stack.publicUrl}/receipts/${wallet.address.toLowerCase()}/${last}?signature=${proof}`,
    );
    // Not claimed yet: the report is kept, its payment still open.
    expect(stored.status).toBe(409);
    expect(
      await stack.records.byAuthorization({ payer: wallet.address, nonce: last }),
    ).toMatchObject({
      status: "pending",
    });
    // Once claimed, the client fetches it back by the nonce it computed, signature verified.
    await stack.payments.channels?.manager().claim();
    const fetched = await client.receipt({ payer: wallet.address, nonce: last as `0x${string}` });
    expect(fetched).toMatchObject({ type: "report", signature: "verified", recovered: true });
    // Closing: the server claims what was charged (12 checks) and returns the rest (8 checks).
    const walletBefore = await stack.usdcBalance(wallet.address);
    const closed = await client.closeChannel();
    expect(closed).toMatchObject({ type: "closed", transaction: expect.stringMatching(/^0x/) });
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore + 8n * price);
  });

  it("pays six checks and deep checks at once over one client: each paid once, one channel, reconciled with the chain", async () => {
    // One agent, six checks in one Promise.all. The server takes one request per channel at a
    // time, so the client must queue them: side by side, all but one were refused channel_busy
    // (and each had the wallet sign a deposit of its own). No answer here is held on a timer:
    // each unpaid challenge waits until all six checks have asked, so all six are under way
    // before any of them pays.
    const payerWallet = privateKeyToAccount(
      devnetPrivateKey(`lane-${lane.index}-client-concurrent-payer`),
    );
    const voucherKey = privateKeyToAccount(
      devnetPrivateKey(`lane-${lane.index}-client-concurrent-session`),
    );
    await fund(payerWallet.address, 100n * price);
    const routes = ["check", "deep", "check", "check", "deep", "check"] as const;
    let asked = 0;
    let allAsked = () => {};
    const everyoneAsked = new Promise<void>((resolve) => {
      allAsked = resolve;
    });
    const barrier = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const paying = request.headers.has("payment-signature");
      const answer = await stack.app.request(request);
      if (request.method === "POST" && !paying && answer.status === 402) {
        asked += 1;
        if (asked === routes.length) allAsked();
        await everyoneAsked;
      }
      return answer;
    };
    let walletSignatures = 0;
    const cap = createSessionSpendCap(1_000_000n);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: {
        address: payerWallet.address,
        signTypedData: (typedData) => {
          walletSignatures += 1;
          return payerWallet.signTypedData(typedData as never);
        },
        signMessage: (args) => payerWallet.signMessage(args),
      },
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: barrier,
      channel: { voucherSigner: toClientEvmSigner(voucherKey) },
    });
    const manager = stack.payments.channels?.manager();
    // Sends payTo what the escrow holds claimed; having nothing to send is no failure here.
    const settle = () =>
      manager?.settle().catch((error: unknown) => {
        if (!String(error).includes("nothing_to_settle")) throw error;
      });
    // What earlier tests claimed goes to payTo first, so what follows is this test's alone.
    await settle();
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    const walletBefore = await stack.usdcBalance(payerWallet.address);
    const nonceBefore = await facilitatorNonce();

    const results = await Promise.all(routes.map((route) => client[route]({ address: target })));

    const nonces: string[] = [];
    for (const [index, result] of results.entries()) {
      expect(result, `${routes[index]} ${index}`).toMatchObject({
        type: "report",
        signature: "verified",
        charged: true,
        settlement: { viaChannel: true, payer: payerWallet.address },
      });
      if (result.type === "report") nonces.push(result.settlement.transaction);
    }
    const charged = routes.reduce((sum, route) => sum + routePrices[route], 0n);
    // Six records under six nonces: no voucher counted twice.
    expect(new Set(nonces).size).toBe(routes.length);
    // Every deposit the wallet signed was sent and landed, and the cap holds each one whole.
    const deposits = BigInt((await facilitatorNonce()) - nonceBefore);
    expect(BigInt(walletSignatures)).toBe(deposits);
    const deposited = walletBefore - (await stack.usdcBalance(payerWallet.address));
    expect(cap.spent()).toBe(deposited);
    expect(deposited).toBeGreaterThanOrEqual(charged);

    // The claim covers all six vouchers; each report is then fetched back by its nonce.
    await manager?.claim();
    await stack.reconcile();
    for (const nonce of nonces) {
      expect(
        await stack.records.byAuthorization({ payer: payerWallet.address, nonce }),
      ).toMatchObject({ status: "settled" });
    }
    expect(
      await client.receipt({ payer: payerWallet.address, nonce: nonces[1] as `0x${string}` }),
    ).toMatchObject({ type: "report", signature: "verified", recovered: true });
    // Closed: the payer gets back all it deposited but the six prices, payTo exactly those.
    expect(await client.closeChannel()).toMatchObject({ type: "closed" });
    await settle();
    expect(await stack.usdcBalance(payerWallet.address)).toBe(walletBefore - charged);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + charged);
    expect(cap.spent()).toBe(charged);
  });

  it.each([
    ["a deposit the caller configured (asked whole, the cap refuses it)", undefined, 5n],
    ["a bounded default deposit (lowered to what the cap has left)", 5n, 8n],
  ])(
    "fourteen checks at once as the channel runs out, %s: each paid once or refused uncharged, the cap never exceeded, reconciled with the chain",
    async (_, maxDepositChecks, paidChecks) => {
      // One agent's Promise.all over a deposit of five checks inside a spend cap of eight: five
      // vouchers fit the first deposit, the sixth needs a second one, which the cap holds only in
      // part. Every check ends with a report or a refusal that charged nothing, and the chain, the
      // server's records and the cap agree on what was paid.
      const price = routePrices.check;
      const tag = maxDepositChecks === undefined ? "configured" : "bounded";
      const payerWallet = privateKeyToAccount(
        devnetPrivateKey(`lane-${lane.index}-client-runs-out-${tag}-payer`),
      );
      await fund(payerWallet.address, 100n * price);
      const count = 14;
      let asked = 0;
      let allAsked = () => {};
      const everyoneAsked = new Promise<void>((resolve) => {
        allAsked = resolve;
      });
      const barrier = async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        const paying = request.headers.has("payment-signature");
        const answer = await stack.app.request(request);
        if (request.method === "POST" && !paying && answer.status === 402) {
          asked += 1;
          if (asked === count) allAsked();
          await everyoneAsked;
        }
        return answer;
      };
      const limit = 8n * price;
      const cap = createSessionSpendCap(limit);
      const client = createPresendClient({
        url: stack.publicUrl,
        signer: payerWallet,
        pinStore: createMemoryPinStore(),
        spendCap: cap,
        fetch: barrier,
        channel: {
          voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
          ...(maxDepositChecks === undefined
            ? { deposit: 5n * price }
            : { maxDeposit: maxDepositChecks * price }),
        },
      });
      const manager = stack.payments.channels?.manager();
      const walletBefore = await stack.usdcBalance(payerWallet.address);
      const targets = Array.from(
        { length: count },
        () => privateKeyToAccount(generatePrivateKey()).address,
      );

      const results = await Promise.all(targets.map((address) => client.check({ address })));

      const nonces: string[] = [];
      for (const [index, result] of results.entries()) {
        if (result.type === "report") {
          expect(result, `check ${index}`).toMatchObject({ charged: true, signature: "verified" });
          expect(result.report.address.toLowerCase()).toBe(targets[index]?.toLowerCase());
          nonces.push(result.settlement.transaction);
        } else {
          expect(result, `check ${index}`).toMatchObject({
            type: "refused",
            code: "cap_reached",
            charged: false,
          });
        }
      }
      expect(nonces).toHaveLength(Number(paidChecks));
      expect(new Set(nonces).size).toBe(nonces.length);
      // What left the wallet is what the cap holds, never above its limit.
      const deposited = walletBefore - (await stack.usdcBalance(payerWallet.address));
      expect(cap.spent()).toBe(deposited);
      expect(cap.spent()).toBeLessThanOrEqual(limit);

      // Claimed: each charged check's record is settled and its report fetchable; no record of
      // the payer's is left open (no refused check was charged).
      await manager?.claim();
      await stack.reconcile();
      for (const nonce of nonces) {
        expect(
          await stack.records.byAuthorization({ payer: payerWallet.address, nonce }),
        ).toMatchObject({ status: "settled", amount: String(price) });
      }
      const open = await stack.records.unresolved();
      expect(
        open.filter((record) => record.payer.toLowerCase() === payerWallet.address.toLowerCase()),
      ).toEqual([]);
      expect(
        await client.receipt({ payer: payerWallet.address, nonce: nonces.at(-1) as `0x${string}` }),
      ).toMatchObject({ type: "report", signature: "verified", recovered: true });
      // The checks spent the deposits whole: the payer paid exactly the checks it got reports
      // for, and a close has nothing to send back.
      expect(deposited).toBe(paidChecks * price);
      const closed = await client.closeChannel();
      expect(closed).toMatchObject({
        type: "failed",
        message: expect.stringContaining("Nothing left"),
      });
      expect(walletBefore - (await stack.usdcBalance(payerWallet.address))).toBe(
        paidChecks * price,
      );
      expect(cap.spent()).toBe(paidChecks * price);
    },
  );

  it("refuses a deposit the spend cap cannot hold, before sending it", async () => {
    const payerKey = devnetPrivateKey(`lane-${lane.index}-client-capped-payer`);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: privateKeyToAccount(payerKey),
      pinStore: createMemoryPinStore(),
      spendCap: createSessionSpendCap(5n * price),
      fetch: viaStack,
      channel: { voucherSigner: toClientEvmSigner(session) },
    });
    const nonceBefore = await facilitatorNonce();
    expect(await client.check({ address: target })).toMatchObject({
      type: "refused",
      code: "cap_reached",
      charged: false,
    });
    expect(await facilitatorNonce()).toBe(nonceBefore);
  });

  it.each([
    ["asset", { asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02912" }, "asset_mismatch"],
    ["network", { network: "eip155:84532" as const }, "network_mismatch"],
    ["payee", { payTo: devnetAccounts.activeOnBase.address }, "payto_mismatch"],
  ])("refuses a channel offer on another %s before signing anything", async (_, change, code) => {
    // A proxy that rewrites the channel offer of every 402; the attested exact offer is untouched.
    const tampering = async (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = await viaStack(input, init);
      const header = answer.headers.get("payment-required");
      if (answer.status !== 402 || header === null) return answer;
      const required = decodePaymentRequiredHeader(header);
      const accepts = required.accepts.map((accept) =>
        accept.scheme === "batch-settlement" ? { ...accept, ...change } : accept,
      );
      const headers = new Headers(answer.headers);
      headers.set("PAYMENT-REQUIRED", encodePaymentRequiredHeader({ ...required, accepts }));
      return new Response(JSON.stringify({ ...required, accepts }), { status: 402, headers });
    };
    const client = createPresendClient({
      url: stack.publicUrl,
      signer,
      pinStore: createMemoryPinStore(),
      fetch: tampering,
      channel: { voucherSigner: toClientEvmSigner(session) },
    });
    signatures = 0;
    expect(await client.check({ address: target })).toMatchObject({
      type: "refused",
      code,
      charged: false,
    });
    expect(signatures).toBe(0);
  });
});
