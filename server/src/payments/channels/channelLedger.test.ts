import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AppEnv } from "../../http/appEnv";
import { createMemoryInFlightLock } from "../../paymentRecords/createMemoryInFlightLock";
import type { AuthorizationKey, PaymentRecord } from "../records/paymentRecords";
import { channelLedger } from "./channelLedger";
import type { ChannelStore } from "./channelStore";
import { openSqliteChannelStore } from "./openSqliteChannelStore";

// The channel ledger around a paid route, over a real channel store; the payment records and the
// route behind it (the scheme's answer) are the boundaries faked here.
const payment = {
  type: "voucher" as const,
  payer: `0x${"1".repeat(40)}`,
  channelId: `0x${"a".repeat(64)}` as const,
  cumulative: 30_000n,
};

describe("channelLedger", () => {
  let store: ChannelStore;
  beforeEach(() => {
    store = openSqliteChannelStore(":memory:");
  });
  afterEach(async () => {
    await store.close();
  });

  it("answers a voucher and payment id already recorded 409 with its receipt, and leaves its record alone", async () => {
    // A payer that sends the same voucher with the same payment id again (a retry after a lost
    // answer) must be pointed at the report it paid for. Sent on to the scheme, the voucher would
    // be refused as stale and the ledger would then fail the record of a charged check.
    const failed: AuthorizationKey[] = [];
    let routeRuns = 0;
    const records = {
      byAuthorization: async (): Promise<PaymentRecord | undefined> =>
        ({ status: "pending" }) as PaymentRecord,
      markFailed: async (key: AuthorizationKey) => {
        failed.push(key);
        return undefined;
      },
    };
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set("channelPayment", { channel: payment, paymentId: "chan_retry" });
      await next();
    });
    app.use(
      channelLedger({
        records,
        store,
        lock: createMemoryInFlightLock(),
        payTo: `0x${"3".repeat(40)}`,
        network: "eip155:8453",
        signReport: async () => "signature",
        publicUrl: "http://api.test",
        onError: () => {},
      }),
    );
    app.post("/check", (c) => {
      routeRuns += 1;
      return c.json({}, 402);
    });
    const answer = await app.request("/check", { method: "POST" });
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({ error: { code: "authorization_used" } });
    expect(answer.headers.get("presend-receipt")).toMatch(
      /^http:\/\/api\.test\/receipts\/0x1{40}\/0x[0-9a-f]{64}$/,
    );
    expect(routeRuns).toBe(0);
    expect(failed).toEqual([]);
    expect(await store.unclaimedCharges()).toEqual([]);
  });
});
