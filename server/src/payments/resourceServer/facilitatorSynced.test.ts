import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactPayments } from "../testing/exactPayments";
import { restartableFacilitator } from "../testing/restartableFacilitator";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// A replica paying through `presend facilitator` (the fleet's shape) that stops before a paid
// route was ever asked: x402 has not read what the facilitator supports yet, and cannot.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const token = "synced-facilitator-token-0123456789abcdef";

describe("facilitatorSynced: x402's first read of the facilitator fails", () => {
  let facilitator: Awaited<ReturnType<typeof restartableFacilitator>>;
  let stack: PaidStack;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: devnetAccounts.activeOnBase.address,
    chain: "base",
  });
  beforeAll(async () => {
    facilitator = await restartableFacilitator(shared.world, token);
    await facilitator.start();
    stack = await startPaidStack({
      world: shared.world,
      env: facilitator.env,
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await facilitator?.stop();
  });

  it("the paid route answers 503 facilitator_unavailable, nothing charged; once it is back, a 402 and a paid report", async () => {
    await facilitator.stop();
    const unpaid = await post();
    expect(unpaid.status).toBe(503);
    expect((await unpaid.json()).error).toMatchObject({
      code: "facilitator_unavailable",
      message: expect.stringContaining("Nothing was charged"),
    });
    await facilitator.start();
    // signed() reads the 402 challenge first, then pays it.
    const { headers, nonce } = await signed();
    const paid = await post(headers);
    expect(paid.status).toBe(200);
    expect(await used(nonce)).toBe(true);
  }, 60_000);
});
