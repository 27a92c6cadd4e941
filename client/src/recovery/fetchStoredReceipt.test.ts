import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { paidOnce } from "../testing/paidOnce";
import { fetchStoredReceipt, receiptPath } from "./fetchStoredReceipt";

describe("fetchStoredReceipt", () => {
  it("asks by payer and nonce, proven by the payer's signature", async () => {
    const { config, payer, nonce } = await paidOnce();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    expect(receiptPath(by)).toBe(`/receipts/${payer.address}/${nonce}`);
    expect(await fetchStoredReceipt(config, by, payer)).toMatchObject({
      type: "found",
      body: { nonce, payer: payer.address },
    });
  });

  it("says what the server answered instead: another signer is forbidden", async () => {
    const { config, payer, nonce } = await paidOnce();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    const stranger = privateKeyToAccount(`0x${"77".repeat(32)}`);
    expect(await fetchStoredReceipt(config, by, stranger)).toEqual({
      type: "missing",
      status: 403,
      code: "receipt_forbidden",
      message: "Only the payer may fetch this receipt.",
    });
  });

  it("asks by settlement transaction, proven by the payer's signature of that transaction", async () => {
    const transaction = `0x${"ab".repeat(32)}` as const;
    const payer = privateKeyToAccount(`0x${"77".repeat(32)}`);
    const asked: string[] = [];
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      fetch: async (url) => {
        asked.push(String(url));
        return Response.json({ tx: transaction });
      },
    });
    expect(receiptPath({ transaction })).toBe(`/receipts/${transaction}`);
    expect(await fetchStoredReceipt(config, { transaction }, payer)).toEqual({
      type: "found",
      body: { tx: transaction },
    });
    const proof = await payer.signMessage({ message: receiptMessage(transaction) });
    expect(asked).toEqual([`http://api.test/receipts/${transaction}?signature=${proof}`]);
  });

  it("an unreachable server is missing with no status", async () => {
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    const payer = privateKeyToAccount(`0x${"77".repeat(32)}`);
    expect(
      await fetchStoredReceipt(config, { transaction: `0x${"ab".repeat(32)}` }, payer),
    ).toEqual({
      type: "missing",
      status: null,
      code: null,
      message: "fetch failed",
    });
  });
});
