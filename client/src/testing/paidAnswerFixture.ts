import { privateKeyToAccount } from "viem/accounts";
import { createPresendClient } from "../createPresendClient";
import { exampleReport } from "../exampleReport";
import { createMemoryPinStore, type PinRecord } from "../PinStore";
import type { Settlement } from "../PresendResult";
import { type FakePaidApiOptions, fakePaidApi } from "./fakePaidApi";

export const fixtureNow = new Date("2025-06-01T12:00:00Z");
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/**
 * For the tests of the answer readers: a paid 200 as the stand-in API answers a real payment of the client
 * (report, detached signature, PAYMENT-RESPONSE with its signed receipt), the settlement the
 * client read from it and the key it pinned.
 * @example const { answer, settlement, pin } = await paidAnswerFixture();
 */
export async function paidAnswerFixture(api: Partial<FakePaidApiOptions> = {}): Promise<{
  answer: Response;
  settlement: Settlement;
  pin: PinRecord;
}> {
  const server = await fakePaidApi({
    payTo,
    report: exampleReport({ address, checkedAt: fixtureNow }),
    now: fixtureNow,
    ...api,
  });
  const pinStore = createMemoryPinStore();
  let answer: Response | undefined;
  const client = createPresendClient({
    url: "http://api.test",
    signer: privateKeyToAccount(`0x${"55".repeat(32)}`),
    pinStore,
    now: () => fixtureNow,
    fetch: async (input, init) => {
      const paid = await server.fetch(input, init);
      if (paid.status === 200 && paid.headers.has("payment-response")) answer = paid.clone();
      return paid;
    },
  });
  const result = await client.check({ address });
  const pin = await pinStore.get("http://api.test");
  const settlement = "settlement" in result ? result.settlement : null;
  if (answer === undefined || pin === undefined || !settlement) {
    throw new Error(`the stand-in did not answer a paid report: ${result.type}`);
  }
  return { answer, settlement, pin };
}
