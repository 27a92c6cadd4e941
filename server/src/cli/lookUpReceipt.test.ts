import type { PresendClient, ReceiptResult } from "@presend/client";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { lookUpReceipt } from "./lookUpReceipt";

const payer = "0x9Cb2e6859F097014298CC31c8d39D4217502960f";
const id: Hex = `0x${"ab".repeat(32)}`;
const notFound: ReceiptResult = {
  type: "not_charged",
  code: "receipt_not_found",
  status: 404,
  message: "No paid request.",
  charged: false,
};
const pending: ReceiptResult = {
  type: "receipt_unavailable",
  code: "receipt_pending",
  status: 409,
  message: "Not decided yet.",
  charged: "unknown",
};

/** A client whose receipt lookups answer from `answers` (by nonce, then by transaction). */
function clientAnswering(byNonce: ReceiptResult, byTransaction: ReceiptResult) {
  const asked: string[] = [];
  const client = {
    receipt: async (key: Parameters<PresendClient["receipt"]>[0]) => {
      asked.push(typeof key === "string" ? "transaction" : "nonce");
      return typeof key === "string" ? byTransaction : byNonce;
    },
  } as unknown as PresendClient;
  return { client, asked };
}

describe("lookUpReceipt", () => {
  it("asks by the payer's nonce first, then by transaction when the server holds no such nonce", async () => {
    const { client, asked } = clientAnswering(notFound, pending);
    expect(await lookUpReceipt(client, payer, id)).toBe(pending);
    expect(asked).toEqual(["nonce", "transaction"]);
  });

  it("says not charged only when neither is held", async () => {
    const { client } = clientAnswering(notFound, notFound);
    expect(await lookUpReceipt(client, payer, id)).toMatchObject({ charged: false });
  });

  it("keeps an unknown charge by nonce unknown: the transaction is not asked", async () => {
    const { client, asked } = clientAnswering(pending, notFound);
    expect(await lookUpReceipt(client, payer, id)).toBe(pending);
    expect(asked).toEqual(["nonce"]);
  });
});
