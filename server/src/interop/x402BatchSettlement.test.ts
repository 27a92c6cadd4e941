import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { ReportSchema } from "@presend/shared/api/report";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme as ChannelClientScheme,
  InMemoryClientChannelStorage,
} from "@x402/evm/batch-settlement/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// An agent paying over a channel with nothing but @x402/fetch and @x402/evm's batch-settlement
// client, whose local channel state goes out of step with the server: the process restarted
// with its in-memory state lost, while the old one still runs with the same keys. Each stale
// voucher is refused with presend's corrective 402, the official client resyncs from it and
// pays again; every check is charged once, and the official refund returns the rest.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const deposit = 10n * price;
const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-interop-channel-payer`));
const sessionKey = privateKeyToAccount(
  devnetPrivateKey(`lane-${lane.index}-interop-channel-session`),
);
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);

describe("@x402/evm's batch-settlement client out of step with the server", () => {
  let stack: PaidStack;
  let server: Listening;
  /** Every paid attempt's answer, with the refusal a 402 named. */
  const attempts: { status: number; error: string | undefined }[] = [];
  const watched = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    if (request.headers.has("payment-signature")) {
      const required = response.headers.get("payment-required");
      attempts.push({
        status: response.status,
        error: required === null ? undefined : decodePaymentRequiredHeader(required).error,
      });
    }
    return response;
  };
  /** One process of the agent: the same wallet and session key, its own channel state. */
  const agentProcess = () => {
    const scheme = new ChannelClientScheme(
      toClientEvmSigner(payer, devnetClient("base", world.chains.base.rpcUrl)),
      {
        voucherSigner: toClientEvmSigner(sessionKey),
        depositStrategy: () => deposit,
        storage: new InMemoryClientChannelStorage(),
      },
    );
    const pay = wrapFetchWithPayment(watched, new x402Client().register("eip155:8453", scheme));
    const check = (address: string) =>
      pay(`${server.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address }),
      });
    return { scheme, check };
  };

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({
      world,
      publicUrl: `http://127.0.0.1:${port}`,
      receiverAuthorizerKey,
    });
    server = await listen(stack.app, { port });
    await fund(payer.address, deposit);
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("resyncs from the corrective 402 and charges each check once; the refund returns the rest", async () => {
    const before = await stack.usdcBalance(payer.address);
    const first = agentProcess();
    for (const address of [devnetAccounts.activeOnBase.address, devnetAccounts.fresh.address]) {
      const answer = await first.check(address);
      expect(answer.status).toBe(200);
      expect(ReportSchema.parse(await answer.json()).address).toBe(address);
    }
    // The restarted process knows nothing of the channel; then the old one is the stale one.
    const restarted = agentProcess();
    expect((await restarted.check(devnetAccounts.sweptOnBase.address)).status).toBe(200);
    expect((await first.check(devnetAccounts.delegatedOnBase.address)).status).toBe(200);
    const mismatch = "invalid_batch_settlement_evm_cumulative_amount_mismatch";
    expect(attempts).toEqual([
      { status: 200, error: undefined },
      { status: 200, error: undefined },
      { status: 402, error: mismatch },
      { status: 200, error: undefined },
      { status: 402, error: mismatch },
      { status: 200, error: undefined },
    ]);
    const [channel] = (await stack.payments.channels?.store.list()) ?? [];
    expect(channel?.chargedCumulativeAmount).toBe(String(4n * price));
    expect(await stack.records.count("pending")).toBe(4);
    expect(await stack.usdcBalance(payer.address)).toBe(before - deposit);

    // The restarted process is the stale one now: its refund resyncs the same way.
    const refund = await restarted.scheme.refund(`${server.url}/check`, { fetch: watched });
    expect(refund).toMatchObject({ success: true, amount: String(deposit - 4n * price) });
    expect(await stack.usdcBalance(payer.address)).toBe(before - 4n * price);
  });
});
