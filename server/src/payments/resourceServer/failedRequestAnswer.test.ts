import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../http/appEnv";
import { openSqlitePaymentRecords } from "../../paymentRecords/openSqlitePaymentRecords";
import { channelRecordValidBefore } from "../channels/channelLedger";
import type { PaymentChain } from "../facilitator/createPaymentChain";
import { createPaymentRecords, type PaymentRecords } from "../records/paymentRecords";
import { failedRequestAnswer } from "./failedRequestAnswer";
import { receiptLocationHeader } from "./paymentLedger";

// The answer's decision table, on a real SQLite records store: what each record state (and a
// store that cannot be read) makes the last-resort answer say about the charge. Each case uses a
// nonce of its own or follows one record through its states. The integration
// test (payments/unexpectedErrors.test.ts) pays for real on the local chain.
const publicUrl = "https://presend.test";
const payer = "0x00000000000000000000000000000000000000a1";
const nonce = `0x${"ab".repeat(32)}`;
const tx = `0x${"cd".repeat(32)}`;
const location = `${publicUrl}/receipts/${payer}/${nonce}`;

describe("failedRequestAnswer", () => {
  const store = openSqlitePaymentRecords(":memory:");
  // answerOf reads no chain; a record is never decided here.
  const records = createPaymentRecords({
    store,
    chain: {} as PaymentChain,
    claimDecidedFrom: channelRecordValidBefore,
  });
  afterAll(() => store.close());

  /** Answers `path` as the app's onError would, with `set` putting the request's payment in place. */
  const answer = async (
    path: string,
    set: (c: Context<AppEnv>) => void,
    from: Pick<PaymentRecords, "byAuthorization" | "byPaymentId" | "answerOf"> = records,
  ): Promise<Response | null> => {
    const app = new OpenAPIHono<AppEnv>();
    const reading = failedRequestAnswer({
      records: from,
      publicUrl,
      settlementReceipt: async () => ({}),
    });
    let result: Response | null = null;
    app.all("*", async (c) => {
      set(c);
      result = await reading(c);
      return c.text("read");
    });
    await app.request(path, { method: "POST" });
    return result;
  };
  const authorization = {
    payer,
    nonce,
    payTo: "0x00000000000000000000000000000000000000b2",
    value: 1000n,
    validAfter: 0n,
    validBefore: 2_000_000_000n,
  };
  const begin = (validBefore: number) =>
    store.begin({
      payer,
      nonce,
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      payTo: authorization.payTo,
      route: "/check",
      amount: "1000",
      validBefore,
      report: { verdict: "ok" },
    });
  const errorOf = async (response: Response | null) => {
    if (response === null) throw new Error("expected an answer, got null");
    return ((await response.json()) as { error: { code: string; message: string } }).error;
  };

  it("no payment: null (the plain 500 stands), except /receipts, whose 500 says nothing about charging", async () => {
    expect(await answer("/check", () => {})).toBeNull();
    const receipts = await answer(`/receipts/${payer}/${nonce}`, () => {});
    expect(receipts?.status).toBe(500);
    expect((await errorOf(receipts)).message).not.toMatch(/charg/i);
  });

  it("a payment with no record: 500 nothing was charged", async () => {
    const response = await answer("/check", (c) => c.set("authorization", authorization));
    expect(response?.status).toBe(500);
    expect(await errorOf(response)).toEqual({
      code: "internal_error",
      message: "Internal error; nothing was charged.",
    });
  });

  it("each record state: settled is charged, pending/unknown/awaiting a claim not known yet, failed nothing charged", async () => {
    const key = { payer, nonce };
    await begin(2_000_000_000);
    const pending = await answer("/check", (c) => c.set("authorization", authorization));
    expect(pending?.status).toBe(502);
    expect(pending?.headers.get(receiptLocationHeader)).toBe(location);
    expect((await errorOf(pending)).message).toContain("not known yet");

    await store.markUnknown(key, tx);
    const unknown = await answer("/check", (c) => c.set("authorization", authorization));
    expect((await errorOf(unknown)).message).toMatch(/not known yet.*by .* at the latest/);

    await store.markSettled(key, tx);
    const settled = await answer("/check", (c) => c.set("authorization", authorization));
    expect(settled?.status).toBe(502);
    expect(settled?.headers.get(receiptLocationHeader)).toBe(location);
    expect(settled?.headers.get("payment-response")).not.toBeNull();
    const charged = await errorOf(settled);
    expect(charged.code).toBe("settlement_unknown");
    expect(charged.message).toContain("Your payment was charged");
  });

  it("a channel payment awaiting its claim: not known until the claim; failed: nothing charged", async () => {
    const key = { payer, nonce: `0x${"ef".repeat(32)}` };
    await store.begin({
      payer,
      nonce: key.nonce,
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      payTo: authorization.payTo,
      route: "/check",
      amount: "1000",
      validBefore: channelRecordValidBefore,
      report: {},
    });
    const set = (c: Context<AppEnv>) =>
      c.set("authorization", {
        ...authorization,
        nonce: key.nonce,
        validBefore: BigInt(channelRecordValidBefore),
      });
    const awaiting = await answer("/check", set);
    expect(awaiting?.status).toBe(502);
    expect((await errorOf(awaiting)).message).toContain("once the server's next claim covers");
    await store.markFailed(key);
    const failed = await answer("/check", set);
    expect(failed?.status).toBe(500);
    expect((await errorOf(failed)).message).toBe("Internal error; nothing was charged.");
  });

  it("a record that cannot be read: the charge is unknown, with where to look", async () => {
    const unreadable = {
      ...records,
      byAuthorization: async () => {
        throw new Error("postgres://secret@db refused");
      },
    };
    const response = await answer(
      "/check",
      (c) => c.set("authorization", { ...authorization, nonce: `0x${"12".repeat(32)}` }),
      unreadable,
    );
    expect(response?.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe("settlement_unknown");
    expect(error.message).not.toContain("nothing was charged");
    expect(error.message).not.toContain("postgres");
  });
});
