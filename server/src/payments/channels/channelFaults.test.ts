import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts, devnetClient, devnetPrivateKey, usdcBalanceOnBase } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { type BatchSettlementVoucherPayload, toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme as ChannelClientScheme,
  signVoucher,
} from "@x402/evm/batch-settlement/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultyRpc, startFaultyRpc } from "../testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";
import { type ServerProcess, startServerProcess } from "../testing/startServerProcess";

// Channel payments when things go wrong, over the paid API with the official client scheme on a
// payment lane of the shared world: the server killed between vouchers and claim (a process of
// its own, SIGKILLed: no drain, no timer left; the next one claims every voucher from the
// durable store and settles their records), a replayed voucher and a voucher beyond the deposit
// (refused before the engine runs, nothing recorded).
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 3n * price;
const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-faults-payer`));
const sessionKey = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-faults-session`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const body = { address: devnetAccounts.activeOnBase.address };

describe("channel payments across a server restart, a replay and an overdraft", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-channel-faults-"));
  let first: ServerProcess;
  let second: PaidStack;
  const chainClient = devnetClient("base", world.chains.base.rpcUrl);
  const scheme = new ChannelClientScheme(toClientEvmSigner(payer, chainClient), {
    voucherSigner: toClientEvmSigner(sessionKey),
    depositStrategy: () => deposit,
  });
  const client = new x402HTTPClient(new x402Client().register(network, scheme));
  /** A server in this process (its app) or in a process of its own (its URL). */
  type Server = PaidStack | ServerProcess;
  const post = async (server: Server, headers: Record<string, string> = {}) => {
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    };
    return "app" in server
      ? server.app.request("/check", init)
      : fetch(`${server.url}/check`, init);
  };
  /** One check paid through the client scheme; returns the answer and the header it sent. */
  async function pay(stack: Server) {
    const challenge = await post(stack);
    const required = client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const payload = await client.createPaymentPayload(required);
    const headers = client.encodePaymentSignatureHeader(payload);
    const response = await post(stack, headers);
    await client.processPaymentResult(
      payload,
      (name) => response.headers.get(name),
      response.status,
    );
    return { response, headers, payload };
  }
  const refusal = (response: Response) =>
    decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "").error;
  let lastHeaders: Record<string, string> = {};
  let lastPayload: PaymentPayload;
  let payToAtStart: bigint;

  beforeAll(async () => {
    await fund(payer.address, deposit);
    first = await startServerProcess({ world, dataDir, receiverAuthorizerKey });
    payToAtStart = await usdcBalanceOnBase(world.chains.base)(lane.payTo.address);
  });
  afterAll(async () => {
    await first?.kill();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("takes a deposit and three vouchers on the first server, which is then killed", async () => {
    for (let check = 1; check <= 2; check += 1) {
      const { response, payload } = await pay(first);
      expect(response.status, `check ${check}`).toBe(200);
      lastPayload = payload;
    }
    // A voucher that fits the channel's state (the right cumulative, within the deposit) starts
    // the engine beside its verification; signed by another key, it is refused all the same and
    // its run answers nothing: no report, no record, nothing charged.
    const raw = lastPayload.payload as unknown as BatchSettlementVoucherPayload;
    const forged: PaymentPayload = {
      ...lastPayload,
      payload: {
        type: "voucher",
        channelConfig: raw.channelConfig,
        voucher: await signVoucher(
          toClientEvmSigner(privateKeyToAccount(devnetPrivateKey("faults: not the session key"))),
          raw.voucher.channelId,
          String(3n * price),
          network,
        ),
      },
    };
    const refused = await post(first, client.encodePaymentSignatureHeader(forged));
    expect(refused.status).toBe(402);
    expect(refusal(refused)).toBe("invalid_batch_settlement_evm_voucher_signature");
    const { response, headers, payload } = await pay(first);
    expect(response.status).toBe(200);
    lastHeaders = headers;
    lastPayload = payload;
    // Killed outright: its drain never runs, so nothing was claimed; the vouchers are only in
    // the data dir it leaves behind.
    await first.kill();
    await expect(fetch(`${first.url}/health`)).rejects.toThrow();
  });

  it("the next server on the same data has every voucher's record and refuses the replayed voucher", async () => {
    second = await startPaidStack({ world, dataDir, receiverAuthorizerKey });
    // Three charged checks recorded, the forged voucher none.
    expect(await second.records.count("pending")).toBe(3);
    expect(await second.records.count()).toBe(3);
    const replay = await post(second, lastHeaders);
    expect(replay.status).toBe(402);
    expect(refusal(replay)).toBe("invalid_batch_settlement_evm_cumulative_amount_mismatch");
    expect(await second.records.count()).toBe(3);
  });

  it("refuses a voucher beyond the deposit, at the right cumulative, before the engine runs", async () => {
    const raw = lastPayload.payload as unknown as BatchSettlementVoucherPayload;
    const over: PaymentPayload = {
      ...lastPayload,
      payload: {
        type: "voucher",
        channelConfig: raw.channelConfig,
        voucher: await signVoucher(
          toClientEvmSigner(sessionKey),
          raw.voucher.channelId,
          String(deposit + price),
          network,
        ),
      },
    };
    const answer = await post(second, client.encodePaymentSignatureHeader(over));
    expect(answer.status).toBe(402);
    expect(refusal(answer)).toBe("invalid_batch_settlement_evm_cumulative_exceeds_balance");
    expect(await second.records.count()).toBe(3);
  });

  it("a claim whose records were never marked (the claimer died) is settled from the escrow's events", async () => {
    const channels = second.payments.channels;
    if (!channels) throw new Error("channels are not offered");
    // A manager over the bare facilitator: it claims on chain and writes no records, as a
    // process killed right after its claim transaction would leave them.
    const bare = channels.scheme.createChannelManager(
      second.payments.facilitator,
      network,
      chains.base.usdc.address,
    );
    const [claim] = await bare.claim();
    expect(await second.records.count("pending")).toBe(3);
    expect(await channels.reconcile()).toEqual({ settled: 3, failed: 0, open: 0 });
    const settled = await second.records.unresolved();
    expect(settled).toEqual([]);
    expect((await second.records.byTransaction(claim?.transaction ?? ""))?.status).toBe("settled");
    await bare.settle();
    expect(await second.usdcBalance(lane.payTo.address)).toBe(payToAtStart + deposit);
  });
});

describe("a claim transaction dropped on its way to the chain", () => {
  const dropPayer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-drop-payer`));
  const dropSession = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-drop-session`));
  let rpc: FaultyRpc;
  let stack: PaidStack;
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
  });

  it("loses no voucher: the claim goes through once sent again, every record settled once", async () => {
    rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    // A public endpoint's cap on log ranges: the records are settled from logs read in steps.
    rpc.maxLogRange = 1_000;
    await fund(dropPayer.address, deposit);
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey,
      paymentRpcUrl: rpc.url,
      confirmationTimeoutMs: 3_000,
    });
    const chain = devnetClient("base", world.chains.base.rpcUrl);
    const dropScheme = new ChannelClientScheme(toClientEvmSigner(dropPayer, chain), {
      voucherSigner: toClientEvmSigner(dropSession),
      depositStrategy: () => deposit,
    });
    const dropClient = new x402HTTPClient(new x402Client().register(network, dropScheme));
    for (let check = 1; check <= 3; check += 1) {
      const challenge = await stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const required = dropClient.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      );
      const payload = await dropClient.createPaymentPayload(required);
      const answer = await stack.app.request("/check", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...dropClient.encodePaymentSignatureHeader(payload),
        },
        body: JSON.stringify(body),
      });
      expect(answer.status, `check ${check}`).toBe(200);
      await dropClient.processPaymentResult(payload, (name) => answer.headers.get(name), 200);
    }
    const manager = stack.payments.channels?.manager();
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    const sendsBefore = rpc.calls.filter((call) => call === "eth_sendRawTransaction").length;
    rpc.mode = "swallowFirstSend";
    const first = await manager?.claim().catch(() => null);
    rpc.mode = "pass";
    // Sent again by the settlement sender, or by the next claim: either way exactly once.
    if (!first || first.length === 0) await manager?.claim();
    await stack.reconcile();
    expect(await stack.records.count("settled")).toBe(3);
    expect(await stack.records.count("pending")).toBe(0);
    await manager?.settle();
    // The swallowed claim was sent again (two claim broadcasts at least, then the settlement),
    // and payTo got the three checks exactly once.
    const sends = rpc.calls.filter((call) => call === "eth_sendRawTransaction").length;
    expect(sends - sendsBefore).toBeGreaterThanOrEqual(3);
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + deposit);
  });
});
