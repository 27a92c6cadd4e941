import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { createMemoryPaymentRecords } from "../../paymentRecords/createMemoryPaymentRecords";
import { samplePaymentRecord } from "../../paymentRecords/samplePaymentRecord";
import type { AuthorizedTransfer, TransactionPayments } from "../facilitator/createPaymentChain";
import { fakePaymentChain } from "../facilitator/fakePaymentChain";
import { chargeOfTransaction, maxTransfersLookedUp } from "./chargeOfTransaction";

const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const sample = samplePaymentRecord(1);
const payTo = sample.payTo.toLowerCase() as Hex;
const transferOf = (n: number, to: Hex = payTo): AuthorizedTransfer => ({
  payer: sample.payer.toLowerCase() as Hex,
  nonce: samplePaymentRecord(n).nonce as Hex,
  to,
});
const mined = (transfers: AuthorizedTransfer[], claimReceivers: Hex[] = []) =>
  ({ type: "mined", transfers, claimReceivers }) satisfies TransactionPayments;

describe("chargeOfTransaction", () => {
  it("finds the record whose authorization a transaction used to pay its payTo; anything else it shows is not charged here", async () => {
    const store = createMemoryPaymentRecords();
    await store.begin(samplePaymentRecord(1));
    await store.begin(samplePaymentRecord(2));
    const chain = fakePaymentChain({
      now: 0,
      used: new Map(),
      transactions: new Map<string, TransactionPayments>([
        [tx(1), mined([transferOf(1)])],
        // The recorded authorization's money went elsewhere: not this record's payment.
        [tx(2), mined([transferOf(2, `0x${"77".repeat(20)}`)])],
        // A transfer to payTo no record holds (paid directly, never presented here).
        [tx(3), mined([transferOf(3)])],
        // Mined without an EIP-3009 transfer (a plain transfer, or reverted).
        [tx(4), mined([])],
      ]),
    });
    const charge = (n: number) => chargeOfTransaction({ store, chain, tx: tx(n), payTo });

    expect(await charge(1)).toMatchObject({
      type: "record",
      tx: tx(1),
      record: { nonce: sample.nonce, status: "pending" },
    });
    for (const n of [2, 3, 4, 5]) expect(await charge(n)).toEqual({ type: "not_charged" });
  });

  it("says unknown when the chain cannot be read or the transaction is not mined yet, never not charged", async () => {
    const store = createMemoryPaymentRecords();
    const down = fakePaymentChain({ now: 0, used: new Map(), down: true });
    expect(await chargeOfTransaction({ store, chain: down, tx: tx(1), payTo })).toEqual({
      type: "unknown",
      reason: "unreadable",
    });
    const pending = fakePaymentChain({
      now: 0,
      used: new Map(),
      transactions: new Map([[tx(1), { type: "pending" }]]),
    });
    expect(await chargeOfTransaction({ store, chain: pending, tx: tx(1), payTo })).toEqual({
      type: "unknown",
      reason: "pending",
    });
  });

  it("names no single payment for a channel claim to payTo or several recorded payments, and looks up a bounded number of transfers", async () => {
    const store = createMemoryPaymentRecords();
    await store.begin(samplePaymentRecord(1));
    await store.begin(samplePaymentRecord(2));
    const many = Array.from({ length: maxTransfersLookedUp + 1 }, (_, n) => transferOf(100 + n));
    const otherReceiver = `0x${"66".repeat(20)}` as Hex;
    const chain = fakePaymentChain({
      now: 0,
      used: new Map(),
      transactions: new Map<string, TransactionPayments>([
        [tx(1), mined([], [payTo])],
        [tx(2), mined([transferOf(1), transferOf(2)])],
        [tx(3), mined(many)],
        // Another seller's claim in the shared escrow, beside a transfer of a recorded payment.
        [tx(4), mined([transferOf(1)], [otherReceiver])],
      ]),
    });
    let reads = 0;
    const counted = {
      byAuthorization: (key: { payer: string; nonce: string }) => {
        reads++;
        return store.byAuthorization(key);
      },
    };
    const charge = (n: number, known: { payTo?: Hex } = { payTo }) =>
      chargeOfTransaction({ store: counted, chain, tx: tx(n), ...known });

    expect(await charge(1)).toEqual({ type: "channel_claim" });
    expect(await charge(2)).toEqual({ type: "several" });
    reads = 0;
    expect(await charge(3)).toEqual({ type: "several" });
    expect(reads).toBe(0);
    expect(await charge(4)).toMatchObject({ type: "record", record: { nonce: sample.nonce } });
    // Without its payTo, any claim is taken as possibly its own: never "not charged".
    expect(await charge(4, {})).toEqual({ type: "channel_claim" });
  });
});
