import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts, devnetClient, senderWorld } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { ReportSchema } from "@presend/shared/api/report";
import { chains } from "@presend/shared/chains/chains";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { type Address, erc20Abi, type Hex, type PrivateKeyAccount, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);

// The payments go through a fault-injecting proxy in front of the real Base anvil (passing
// everything unless a test says otherwise); the engine can be given something to do while it
// runs, between verification and settlement.
describe("retries with an x402 payment-identifier (real anvil, official client)", () => {
  let stack: PaidStack;
  let rpc: FaultyRpc;
  let duringEngine: (() => Promise<void>) | null = null;
  let afterRecorded: (() => Promise<void>) | null = null;
  let dataDir: string | undefined;
  const httpClient = (signer: PrivateKeyAccount = payer) => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(signer) });
    return new x402HTTPClient(client);
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** A fresh EIP-3009 signature for `path`, carrying `paymentId` the way the extension says. */
  const signedWithId = async (
    path: string,
    body: unknown,
    paymentId: string,
    signer: PrivateKeyAccount = payer,
  ) => (await signed(path, body, paymentId, signer)).headers;
  const signed = async (path: string, body: unknown, paymentId: string, signer = payer) => {
    const client = httpClient(signer);
    const challenge = await post(path, body);
    expect(challenge.status).toBe(402);
    const required = client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    expect(required.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false } });
    appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
    const payload = await client.createPaymentPayload(required);
    const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
    return { headers: client.encodePaymentSignatureHeader(payload), nonce };
  };
  const base = () => devnetClient("base", stack.world.chains.base.rpcUrl);
  const authorizationUsed = (authorizer: Address, nonce: Hex) =>
    base().readContract({
      address: chains.base.usdc.address,
      abi: eip3009,
      functionName: "authorizationState",
      args: [authorizer, nonce],
    });
  /** A payer of its own (so draining it touches no other test), with `amount` USDC. */
  const newPayer = async (amount: bigint) => {
    const account = privateKeyToAccount(generatePrivateKey());
    await shared.fund(account.address, amount);
    return account;
  };

  beforeAll(async () => {
    const world = shared.world;
    rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    const wrapEngine = (engine: Engine): Engine => ({
      check: async (input) => {
        await duringEngine?.();
        return engine.check(input);
      },
      deep: async (input) => {
        await duringEngine?.();
        return engine.deep(input);
      },
    });
    // The real SQLite store, with a pause after a payment is recorded (before it settles).
    dataDir = mkdtempSync(join(tmpdir(), "presend-retries-"));
    const store = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
    const records: PaymentRecordStore = {
      ...store,
      begin: async (record) => {
        const written = await store.begin(record);
        await afterRecorded?.();
        return written;
      },
    };
    stack = await startPaidStack({
      world,
      dataDir,
      records,
      paymentRpcUrl: rpc.url,
      confirmationTimeoutMs: 3_000,
      wrapEngine,
    });
  });
  afterEach(() => {
    rpc.mode = "pass";
    duringEngine = null;
    afterRecorded = null;
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a retry with a fresh signature and the same id with the same report, charged once", async () => {
    const payTo = stack.world.accounts.payTo.address;
    const [payerBefore, payToBefore] = await Promise.all([
      stack.usdcBalance(payer.address),
      stack.usdcBalance(payTo),
    ]);
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await post("/check", body, await signedWithId("/check", body, paymentId));
    expect(first.status).toBe(200);
    const report = ReportSchema.parse(await first.json());
    const settlement = decodePaymentResponseHeader(first.headers.get("payment-response") ?? "");
    expect(settlement.success).toBe(true);

    // The same request, as after a lost answer: default chain written out differently is the same ask.
    const retry = await post(
      "/check",
      { address: target },
      await signedWithId("/check", { address: target }, paymentId),
    );
    expect(retry.status).toBe(200);
    const again = ReportSchema.parse(await retry.json());
    expect(again).toEqual(report);
    expect(again.checkedAt).toBe(report.checkedAt);
    expect(
      decodePaymentResponseHeader(retry.headers.get("payment-response") ?? "").transaction,
    ).toBe(settlement.transaction);
    expect(retry.headers.get("presend-report-signature")).toBeTruthy();

    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({
      status: "settled",
      tx: settlement.transaction.toLowerCase(),
      route: "/check",
    });
  });

  it("refuses the same id for a different request with 409 payment_id_conflict, charging nothing", async () => {
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await post("/check", body, await signedWithId("/check", body, paymentId));
    expect(first.status).toBe(200);
    const before = await stack.usdcBalance(payer.address);
    const count = await stack.records.count();

    for (const [path, other] of [
      ["/check", { address: target, chain: "arbitrum" }],
      ["/check", { address: devnetAccounts.payer.address }],
      ["/deep", body],
    ] as const) {
      const response = await post(path, other, await signedWithId(path, other, paymentId));
      expect(response.status).toBe(409);
      expect(response.headers.get("payment-response")).toBeNull();
      expect(await response.json()).toMatchObject({ error: { code: "payment_id_conflict" } });
    }
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    expect(await stack.records.count()).toBe(count);
  });

  it("a retry whose sender differs from the paid request's (named, dropped or another) is 409 payment_id_conflict, never the report of the other ask", async () => {
    // The sender decides the verdict: the fresh lookalike of an address the victim paid is only
    // caution without it, danger with it.
    const lookalike = senderWorld.freshLookalike;
    const sender = devnetAccounts.poisoningVictim.address;
    const withoutSender = { address: lookalike, chain: "base" };
    const withSender = { address: lookalike, chain: "base", from: sender };

    const unnamed = generatePaymentId();
    const paid = await post(
      "/check",
      withoutSender,
      await signedWithId("/check", withoutSender, unnamed),
    );
    expect(paid.status).toBe(200);
    expect(ReportSchema.parse(await paid.json()).verdict.level).toBe("caution");
    const before = await stack.usdcBalance(payer.address);
    const conflict = await post(
      "/check",
      withSender,
      await signedWithId("/check", withSender, unnamed),
    );
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: { code: "payment_id_conflict" } });

    const named = generatePaymentId();
    const first = await post("/check", withSender, await signedWithId("/check", withSender, named));
    expect(first.status).toBe(200);
    const report = ReportSchema.parse(await first.json());
    expect(report.verdict.level).toBe("danger");
    // The same sender in another case, as pasted, is the same ask.
    const sameSender = { ...withSender, from: ` ${sender.toLowerCase()} ` };
    const retry = await post("/check", sameSender, await signedWithId("/check", sameSender, named));
    expect(retry.status).toBe(200);
    expect(ReportSchema.parse(await retry.json())).toEqual(report);
    for (const other of [
      withoutSender,
      { ...withSender, from: devnetAccounts.genuineCounterparty.address },
    ]) {
      const response = await post("/check", other, await signedWithId("/check", other, named));
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ error: { code: "payment_id_conflict" } });
    }
    // The first payment and the one named: nothing more.
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("lets the presend client retry a call with its payment id: the same report, charged once", async () => {
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    const before = await stack.usdcBalance(payer.address);
    const paymentId = generatePaymentId("retry_");
    const first = await client.check({ address: target, paymentId });
    const again = await client.check({ address: target, paymentId });
    expect(first).toMatchObject({ type: "report", charged: true });
    expect(again).toMatchObject({ type: "report", charged: true });
    if (first.type !== "report" || again.type !== "report") throw new Error("no report");
    expect(again.report.checkedAt).toBe(first.report.checkedAt);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    expect((await stack.records.byPaymentId(paymentId))?.status).toBe("settled");
    expect(first.paymentId).toBe(paymentId);

    // Without one given, the client makes one per call and returns it: the id to retry with.
    const generated = await client.check({ address: target });
    expect(generated).toMatchObject({ type: "report", charged: true });
    expect(generated.paymentId).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(generated.paymentId).not.toBe(paymentId);
    expect((await stack.records.byPaymentId(generated.paymentId ?? ""))?.status).toBe("settled");
  });

  it("two requests with the same payment id at once: one is served, the other is 409 payment_id_in_flight; its retry gets the same report; charged once, as the chain shows", async () => {
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await signed("/check", body, paymentId);
    const second = await signed("/check", body, paymentId);
    const payTo = stack.world.accounts.payTo.address;
    const [payerBefore, payToBefore] = [
      await stack.usdcBalance(payer.address),
      await stack.usdcBalance(payTo),
    ];
    const recordsBefore = await stack.records.count();
    // The first request is held in the engine (id taken, not settled) until the second has answered.
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let entered = () => {};
    const inEngine = new Promise<void>((resolve) => {
      entered = resolve;
    });
    duringEngine = async () => {
      entered();
      await gate;
    };
    const served = post("/check", body, first.headers);
    await inEngine;
    const turnedAway = await post("/check", body, second.headers);
    expect(turnedAway.status).toBe(409);
    expect(await turnedAway.json()).toMatchObject({ error: { code: "payment_id_in_flight" } });
    expect(turnedAway.headers.get("payment-response")).toBeNull();
    // Nothing is recorded yet: no receipt is named.
    expect(turnedAway.headers.get("presend-receipt")).toBeNull();
    open();
    const answer = await served;
    expect(answer.status).toBe(200);
    const report = ReportSchema.parse(await answer.json());
    const settlement = decodePaymentResponseHeader(answer.headers.get("payment-response") ?? "");

    // The turned-away request retried as it was: answered from the record, not paid again.
    const retry = await post("/check", body, second.headers);
    expect(retry.status).toBe(200);
    expect(ReportSchema.parse(await retry.json())).toEqual(report);
    expect(
      decodePaymentResponseHeader(retry.headers.get("payment-response") ?? "").transaction,
    ).toBe(settlement.transaction);

    // Reconciled against the chain: one transfer, made by the first authorization, in the
    // transaction both answers named; the second authorization is unused and can never settle here.
    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
    expect(await authorizationUsed(payer.address, first.nonce)).toBe(true);
    expect(await authorizationUsed(payer.address, second.nonce)).toBe(false);
    expect(
      (await stack.payments.chain.findAuthorizationTx(payer.address, first.nonce))?.toLowerCase(),
    ).toBe(settlement.transaction.toLowerCase());
    expect(await stack.records.count()).toBe(recordsBefore + 1);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({
      status: "settled",
      nonce: first.nonce.toLowerCase(),
      tx: settlement.transaction.toLowerCase(),
    });
    expect(await stack.records.byAuthorization({ payer: payer.address, nonce: second.nonce })).toBe(
      undefined,
    );
  });

  it("turned away while the payment its id made settles, a request is told where that payment's report is kept", async () => {
    const paymentId = generatePaymentId();
    const body = { address: target, chain: "base" };
    const first = await signed("/check", body, paymentId);
    const second = await signed("/check", body, paymentId);
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let recorded = () => {};
    const isRecorded = new Promise<void>((resolve) => {
      recorded = resolve;
    });
    afterRecorded = async () => {
      afterRecorded = null;
      recorded();
      await gate;
    };
    const served = post("/check", body, first.headers);
    await isRecorded;
    const turnedAway = await post("/check", body, second.headers);
    expect(turnedAway.status).toBe(409);
    expect(await turnedAway.json()).toMatchObject({ error: { code: "payment_id_in_flight" } });
    // The receipt of the payment being made, never one under the retry's own authorization.
    expect(turnedAway.headers.get("presend-receipt")).toBe(
      `${stack.publicUrl}/receipts/${payer.address.toLowerCase()}/${first.nonce.toLowerCase()}`,
    );
    // Another request under the same id is a conflict, not this check: no receipt named.
    const other = { address: devnetAccounts.payer.address, chain: "base" };
    const elsewhere = await post("/check", other, await signedWithId("/check", other, paymentId));
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.headers.get("presend-receipt")).toBeNull();
    open();
    expect((await served).status).toBe(200);
  });

  it("two presend client calls with the same payment id at once: both get the same report, charged once", async () => {
    const paymentId = generatePaymentId("twice_");
    const statuses: number[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The first call is held in the engine until the other has been told its id is in flight.
    duringEngine = async () => {
      duringEngine = null;
      await gate;
    };
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        const answer = await stack.app.request(
          input instanceof Request ? input : new Request(input, init),
        );
        statuses.push(answer.status);
        if (answer.status === 409) open();
        return answer;
      },
    });
    const before = await stack.usdcBalance(payer.address);
    const [one, two] = await Promise.all([
      client.check({ address: target, paymentId }),
      client.check({ address: target, paymentId }),
    ]);
    expect(statuses).toContain(409);
    expect(one).toMatchObject({ type: "report", charged: true, paymentId });
    expect(two).toMatchObject({ type: "report", charged: true, paymentId });
    if (one.type !== "report" || two.type !== "report") throw new Error("no report");
    expect(two.report.checkedAt).toBe(one.report.checkedAt);
    expect(two.settlement.transaction).toBe(one.settlement.transaction);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("retry after a failed payment: the failed one was not charged; the same id with a fresh signature is 409 payment_id_conflict, charging nothing; a new id pays", async () => {
    const poor = await newPayer(10_000n);
    const payTo = stack.world.accounts.payTo.address;
    const payToBefore = await stack.usdcBalance(payTo);
    const paymentId = generatePaymentId();
    const body = { address: target };
    const first = await signed("/check", body, paymentId, poor);
    // Verified, then, while the engine runs, the payer spends its USDC elsewhere: settlement fails.
    duringEngine = async () => {
      duringEngine = null;
      await base().setBalance({ address: poor.address, value: 10n ** 18n });
      await base().confirm(
        base().writeContract({
          account: poor,
          address: chains.base.usdc.address,
          abi: erc20Abi,
          functionName: "transfer",
          args: [privateKeyToAccount(generatePrivateKey()).address, 10_000n],
        }),
      );
    };
    const failed = await post("/check", body, first.headers);
    expect(failed.status).toBe(402);
    expect(decodePaymentResponseHeader(failed.headers.get("payment-response") ?? "")).toMatchObject(
      { success: false, transaction: "" },
    );
    expect(await authorizationUsed(poor.address, first.nonce)).toBe(false);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({ status: "failed" });

    // Funded again, the payer retries the same call: same id, fresh signature.
    await shared.fund(poor.address, 10_000n);
    const retry = await signed("/check", body, paymentId, poor);
    const answer = await post("/check", body, retry.headers);
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({ error: { code: "payment_id_conflict" } });
    expect(answer.headers.get("payment-response")).toBeNull();
    expect(await authorizationUsed(poor.address, retry.nonce)).toBe(false);
    expect(await stack.usdcBalance(poor.address)).toBe(10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({ status: "failed" });

    const fresh = await post(
      "/check",
      body,
      await signedWithId("/check", body, generatePaymentId(), poor),
    );
    expect(fresh.status).toBe(200);
    expect(await stack.usdcBalance(poor.address)).toBe(0n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
  });

  it("retry of a payment whose settlement outcome is unknown: answered from the record and not settled again; once the chain shows the transfer, the same report", async () => {
    const paymentId = generatePaymentId();
    const body = { address: target };
    const payTo = stack.world.accounts.payTo.address;
    const first = await signed("/check", body, paymentId);
    const [payerBefore, payToBefore] = [
      await stack.usdcBalance(payer.address),
      await stack.usdcBalance(payTo),
    ];
    // The payment chain goes down right after the broadcast: the outcome cannot be read.
    rpc.mode = "downAfterSend";
    const unknown = await post("/check", body, first.headers);
    expect(unknown.status).toBe(502);
    expect(await unknown.json()).toMatchObject({ error: { code: "settlement_unknown" } });
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({ status: "unknown" });

    // Retried with a fresh signature while the chain is still unreadable: the same answer.
    const second = await signed("/check", body, paymentId);
    const still = await post("/check", body, second.headers);
    expect(still.status).toBe(502);
    expect(await still.json()).toMatchObject({ error: { code: "settlement_unknown" } });
    expect(still.headers.get("presend-receipt")).toBe(
      `${stack.publicUrl}/receipts/${payer.address.toLowerCase()}/${first.nonce.toLowerCase()}`,
    );

    // The chain answers again and shows the transfer: the next retry is the report, with no
    // reconciliation round in between.
    rpc.mode = "pass";
    const third = await signed("/check", body, paymentId);
    const done = await post("/check", body, third.headers);
    expect(done.status).toBe(200);
    const report = ReportSchema.parse(await done.json());
    const record = await stack.records.byPaymentId(paymentId);
    expect(record).toMatchObject({ status: "settled" });
    expect(report).toEqual(record?.report);
    const settlement = decodePaymentResponseHeader(done.headers.get("payment-response") ?? "");
    expect(settlement.transaction.toLowerCase()).toBe(record?.tx);
    expect(
      (await stack.payments.chain.findAuthorizationTx(payer.address, first.nonce))?.toLowerCase(),
    ).toBe(record?.tx);

    // Charged once: one transfer, by the first authorization only.
    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 10_000n);
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 10_000n);
    expect(await authorizationUsed(payer.address, second.nonce)).toBe(false);
    expect(await authorizationUsed(payer.address, third.nonce)).toBe(false);
    const signature = await payer.signMessage({ message: receiptMessage(first.nonce) });
    const receipt = await stack.app.request(
      `/receipts/${payer.address}/${first.nonce}?signature=${signature}`,
    );
    expect(receipt.status).toBe(200);
    expect((await receipt.json()).report).toEqual(report);
  });
});
