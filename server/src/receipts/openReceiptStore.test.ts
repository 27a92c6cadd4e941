import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openReceiptStore, type Receipt } from "./openReceiptStore";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const receipt = (tx: string): Receipt => ({
  tx,
  network: "eip155:8453",
  payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  route: "/check",
  amount: "10000",
  report: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", verdict: { level: "ok" } },
  createdAt: "2026-11-21T12:00:00.000Z",
});

describe("openReceiptStore", () => {
  it("keeps a receipt across a reopen of the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-receipts-"));
    dirs.push(dir);
    const file = join(dir, "nested", "receipts.sqlite");
    const tx = `0x${"ab".repeat(32)}`;
    const first = openReceiptStore(file);
    first.record(receipt(tx));
    first.close();
    const again = openReceiptStore(file);
    expect(again.get(tx)).toEqual(receipt(tx));
    expect(again.get(tx.toUpperCase().replace("0X", "0x"))).toEqual(receipt(tx));
    expect(again.count()).toBe(1);
    again.close();
  });

  it("answers undefined for an unknown transaction", () => {
    const store = openReceiptStore(":memory:");
    expect(store.get(`0x${"00".repeat(32)}`)).toBeUndefined();
    store.close();
  });

  it("never overwrites the first record of a transaction", () => {
    const store = openReceiptStore(":memory:");
    const tx = `0x${"cd".repeat(32)}`;
    store.record(receipt(tx));
    store.record({ ...receipt(tx), report: { forged: true } });
    expect(store.get(tx)?.report).toEqual(receipt(tx).report);
    store.close();
  });

  it("rejects a malformed transaction hash", () => {
    const store = openReceiptStore(":memory:");
    expect(() => store.record(receipt("0x1234"))).toThrow();
    store.close();
  });
});
