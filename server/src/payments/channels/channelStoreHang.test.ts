import { artifacts, devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../engine/createEngine";
import { type LocalPostgres, startPostgres } from "../../localServices/startPostgres";
import { openPostgresPaymentRecords } from "../../paymentRecords/openPostgresPaymentRecords";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// Channel payments with the channels and the payment records in a real PostgreSQL that stops
// answering (SIGSTOP) while a voucher's check runs, over the paid API with the official client
// scheme on a payment lane of the shared world: the voucher is refused with a 503 and charged
// nowhere, the next one pays, and the claim covers exactly the checks answered.
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 5n * price;
const payer = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-store-hang-payer`));
const sessionKey = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-store-hang-session`));
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const body = { address: devnetAccounts.activeOnBase.address };

describe("channel payments while PostgreSQL hangs", () => {
  let stack: PaidStack;
  let postgres: LocalPostgres;
  let duringEngine: (() => void) | null = null;
  const chainClient = devnetClient("base", world.chains.base.rpcUrl);
  const client = new x402HTTPClient(
    new x402Client().register(
      network,
      new ChannelClientScheme(toClientEvmSigner(payer, chainClient), {
        voucherSigner: toClientEvmSigner(sessionKey),
        depositStrategy: () => deposit,
      }),
    ),
  );
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  /** One check paid through the client scheme, which follows the channel from each answer. */
  async function pay() {
    const challenge = await post();
    const required = client.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const payload = await client.createPaymentPayload(required);
    const response = await post(client.encodePaymentSignatureHeader(payload));
    await client
      .processPaymentResult(payload, (name) => response.headers.get(name), response.status)
      .catch(() => undefined);
    return response;
  }
  const escrow = (channelId: Hex) =>
    chainClient.readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: artifacts.PresendBatchSettlement.abi,
      functionName: "channels",
      args: [channelId],
    }) as Promise<readonly [bigint, bigint]>;

  beforeAll(async () => {
    await fund(payer.address, deposit);
    postgres = await startPostgres();
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey,
      records: await openPostgresPaymentRecords(postgres.url),
      env: { DATABASE_URL: postgres.url },
      wrapEngine: (engine: Engine): Engine => ({
        check: async (input) => {
          duringEngine?.();
          return engine.check(input);
        },
        deep: (input) => engine.deep(input),
      }),
    });
  });
  afterAll(async () => {
    postgres?.thaw();
    await stack?.stop();
    await postgres?.stop();
  });

  it("a voucher whose check runs as the database stops answering is refused with a 503 in seconds and charged nowhere; the next one pays; the claim covers the checks answered", async () => {
    expect((await pay()).status).toBe(200);
    const [opened] = (await stack.payments.channels?.store.list()) ?? [];
    const channelId = opened?.channelId as Hex;
    expect(opened?.chargedCumulativeAmount).toBe(String(price));

    duringEngine = () => postgres.freeze();
    const started = performance.now();
    const refused = await pay();
    const seconds = (performance.now() - started) / 1000;
    duringEngine = null;
    postgres.thaw();
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("payment_record_unavailable");
    expect(seconds).toBeLessThan(20);
    // Not charged in the channel: its state is as the first check left it.
    const [after] = (await stack.payments.channels?.store.list()) ?? [];
    expect(after?.chargedCumulativeAmount).toBe(String(price));

    expect((await pay()).status).toBe(200);
    const [paid] = (await stack.payments.channels?.store.list()) ?? [];
    expect(paid?.chargedCumulativeAmount).toBe(String(2n * price));

    // The claim takes what two answered checks charged, and every record is decided: the two
    // reports settled with the claim, nothing left open for the refused one.
    const claims = (await stack.payments.channels?.manager().claim()) ?? [];
    expect(claims).toHaveLength(1);
    expect(await escrow(channelId)).toEqual([deposit, 2n * price]);
    expect(await stack.records.count("settled")).toBe(2);
    expect(await stack.records.count("pending")).toBe(0);
  }, 120_000);
});
