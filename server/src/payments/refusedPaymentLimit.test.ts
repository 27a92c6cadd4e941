import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { type BatchSettlementVoucherPayload, toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme as ChannelClientScheme,
  signVoucher,
} from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// Refused payments against the challenge budget, over the paid API on a payment lane of the
// shared world with the official x402 clients: forged vouchers over a real open channel (the kind
// that start the engine beside their verification) and forged `exact` authorizations are answered
// 402 up to the budget, then 429 before any verification or engine run, while a correct payer
// from another client is paid as ever.
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 5n * price;
const budget = 3;
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const body = { address: devnetAccounts.activeOnBase.address };
const forger = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-limit-forger`));
const forgerSession = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-limit-session`));
const honest = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-limit-honest`));
const honestSession = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-limit-hsession`));

describe("refused payments count against the client's challenge budget", () => {
  let stack: PaidStack;
  let engineRuns = 0;
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  /** Each client is one address behind the trusted proxy. */
  const post = (client: string, headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": client, ...headers },
      body: JSON.stringify(body),
    });
  const required = async (answer: Response): Promise<PaymentRequired> =>
    decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
  const channelClient = (payer: typeof forger, session: typeof forgerSession): x402HTTPClient =>
    new x402HTTPClient(
      new x402Client().register(
        network,
        new ChannelClientScheme(toClientEvmSigner(payer, chain), {
          voucherSigner: toClientEvmSigner(session),
          depositStrategy: () => deposit,
        }),
      ),
    );
  /** One check paid through `client` by `address`: a challenge, then the payment. */
  const pay = async (client: x402HTTPClient, address: string) => {
    const challenge = await post(address);
    const payload = await client.createPaymentPayload(
      client.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      ),
    );
    const answer = await post(address, client.encodePaymentSignatureHeader(payload));
    await client.processPaymentResult(payload, (name) => answer.headers.get(name), answer.status);
    return { answer, payload };
  };
  const counting = (engine: Engine): Engine => ({
    ...engine,
    check: (input) => {
      engineRuns += 1;
      return engine.check(input);
    },
    deep: (input) => {
      engineRuns += 1;
      return engine.deep(input);
    },
  });

  beforeAll(async () => {
    await fund(forger.address, deposit);
    await fund(honest.address, deposit);
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey,
      wrapEngine: counting,
      env: {
        RATE_LIMITS: "on",
        RATE_LIMIT_CHALLENGES: String(budget),
        TRUST_PROXY: "1",
      },
    });
  });
  afterAll(() => stack?.stop());

  it("forged vouchers over a real open channel: 402 up to the budget, then 429 with no engine run; another client still pays", async () => {
    const forgerAddress = "203.0.113.10";
    const client = channelClient(forger, forgerSession);
    // A real channel, opened with a real deposit that paid one check.
    const opened = await pay(client, forgerAddress);
    expect(opened.answer.status).toBe(200);
    const raw = opened.payload.payload as unknown as BatchSettlementVoucherPayload;
    // Vouchers at the channel's next cumulative, within the deposit, signed by a stranger: they
    // fit the channel's stored state, so each one that gets past the limit starts the engine.
    const forged = async (): Promise<PaymentPayload> => ({
      ...opened.payload,
      payload: {
        type: "voucher",
        channelConfig: raw.channelConfig,
        voucher: await signVoucher(
          toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
          raw.voucher.channelId,
          String(2n * price),
          network,
        ),
      },
    });
    const statuses: number[] = [];
    const runsPerAnswer: Record<number, number> = { 402: 0, 429: 0 };
    let limited: Response | undefined;
    for (let attempt = 0; attempt < budget + 3; attempt += 1) {
      const runsBefore = engineRuns;
      const answer = await post(forgerAddress, client.encodePaymentSignatureHeader(await forged()));
      statuses.push(answer.status);
      runsPerAnswer[answer.status] = (runsPerAnswer[answer.status] ?? 0) + engineRuns - runsBefore;
      if (answer.status === 402) {
        expect((await required(answer)).error).toBe(
          "invalid_batch_settlement_evm_voucher_signature",
        );
      } else limited = answer;
    }
    expect(statuses).toEqual([...Array(budget).fill(402), 429, 429, 429]);
    // Each forged voucher under the budget started the engine beside its verification (what
    // the limit bounds); none over it did.
    expect(runsPerAnswer).toEqual({ 402: budget, 429: 0 });
    expect(limited?.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited?.headers.get("ratelimit")).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    expect(await limited?.json()).toEqual({
      error: { code: "rate_limited", message: expect.stringContaining("refused payments") },
    });
    expect(await stack.records.count()).toBe(1);

    // A correct payer from another client: deposit, then a voucher, both paid.
    const other = channelClient(honest, honestSession);
    expect((await pay(other, "203.0.113.11")).answer.status).toBe(200);
    expect((await pay(other, "203.0.113.11")).answer.status).toBe(200);
    expect(await stack.records.count()).toBe(3);
  });

  it("forged exact authorizations count the same: 402 up to the budget, then 429, nothing verified or charged", async () => {
    const forgerAddress = "203.0.113.20";
    const stranger = privateKeyToAccount(generatePrivateKey());
    const attacker = new x402Client();
    registerExactEvmScheme(attacker, { signer: toClientEvmSigner(stranger) });
    const http = new x402HTTPClient(attacker.setSpendControls(false));
    const challenge = await required(await post("203.0.113.21"));
    const exact = { ...challenge, accepts: challenge.accepts.filter((a) => a.scheme === "exact") };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < budget + 2; attempt += 1) {
      const payload = await attacker.createPaymentPayload(exact);
      // Claims the honest payer's funds with the stranger's signature.
      const authorization = (payload.payload as { authorization: object }).authorization;
      const claimed = {
        ...payload,
        payload: { ...payload.payload, authorization: { ...authorization, from: honest.address } },
      };
      const answer = await post(forgerAddress, http.encodePaymentSignatureHeader(claimed));
      statuses.push(answer.status);
      if (answer.status === 402)
        expect((await required(answer)).error).toBe("invalid_exact_evm_signature");
    }
    expect(statuses).toEqual([...Array(budget).fill(402), 429, 429]);
    expect(await stack.records.count()).toBe(3);
    // Headers that carry no authorization at all are unpaid challenges, on their own budget.
    const junk = [];
    for (let attempt = 0; attempt < budget + 1; attempt += 1) {
      junk.push((await post("203.0.113.22", { "PAYMENT-SIGNATURE": "junk" })).status);
    }
    expect(junk).toEqual([...Array(budget).fill(402), 429]);
  });

  it("a client that pays correctly is never limited, however many checks it pays", async () => {
    const address = "203.0.113.30";
    const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-limit-exact-payer`));
    await fund(payer.address, BigInt(budget + 3) * price);
    const exact = new x402Client();
    registerExactEvmScheme(exact, { signer: toClientEvmSigner(payer) });
    const http = new x402HTTPClient(exact);
    for (let check = 0; check < budget + 3; check += 1) {
      const challenge = await post(address);
      expect(challenge.status).toBe(402);
      const offer = await required(challenge);
      const payload = await exact.createPaymentPayload({
        ...offer,
        accepts: offer.accepts.filter((a) => a.scheme === "exact"),
      });
      const answer = await post(address, http.encodePaymentSignatureHeader(payload));
      expect(answer.status, `check ${check}`).toBe(200);
    }
  });

  // The official facilitator takes a payload's fields for granted: one of the wrong type made it
  // throw, answered 503 facilitator_unavailable ("try again"), which no budget counted.
  it("payments whose fields are of the wrong type are refused 402 before verification and counted, never a 503 or a 500", async () => {
    const address = "203.0.113.40";
    const payer = privateKeyToAccount(generatePrivateKey());
    const session = privateKeyToAccount(generatePrivateKey());
    const offer = await required(await post("203.0.113.41"));
    const channel = { ...offer, accepts: offer.accepts.filter((a) => a.scheme !== "exact") };
    const depositOf = async (change: (deposit: Record<string, unknown>) => object) => {
      const payload = await channelClient(payer, session).createPaymentPayload(channel);
      const raw = payload.payload as { deposit: Record<string, unknown> };
      return { ...payload, payload: { ...raw, deposit: change(raw.deposit) } };
    };
    const erc3009 = (deposit: Record<string, unknown>) =>
      (deposit.authorization as { erc3009Authorization: object }).erc3009Authorization;
    const exact = new x402Client();
    registerExactEvmScheme(exact, { signer: toClientEvmSigner(payer) });
    const exactPayload = await exact.createPaymentPayload({
      ...offer,
      accepts: offer.accepts.filter((a) => a.scheme === "exact"),
    });
    const malformed: PaymentPayload[] = [
      await depositOf((deposit) => ({ ...deposit, amount: "ten" })),
      await depositOf((deposit) => ({
        ...deposit,
        authorization: { erc3009Authorization: { ...erc3009(deposit), signature: 5 } },
      })),
      await depositOf((deposit) => ({
        ...deposit,
        authorization: { erc3009Authorization: { ...erc3009(deposit), validBefore: "soon" } },
      })),
      await depositOf((deposit) => ({ ...deposit, authorization: { permit2Authorization: {} } })),
      { ...exactPayload, payload: { ...exactPayload.payload, signature: null } },
    ];
    const engineRunsBefore = engineRuns;
    const seen = [];
    for (const payload of malformed) {
      const header = {
        "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payload)).toString("base64"),
      };
      const answer = await post(address, header);
      seen.push(answer.status);
      if (answer.status === 402)
        expect((await required(answer)).error).toBe("invalid_payment_header");
    }
    // They pay for nothing: unpaid challenges, on that budget like a junk header.
    expect(seen).toEqual([...Array(budget).fill(402), 429, 429]);
    expect(engineRuns).toBe(engineRunsBefore);
  });
});
