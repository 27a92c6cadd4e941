import { describe, expect, it } from "vitest";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import type { PendingRecovery } from "../storage/schemas";
import {
  backgroundStoppedMessage,
  backgroundStoppedUnpaidMessage,
  lostCheckOutcome,
} from "./lostCheckOutcome";
import { MessageError } from "./MessageError";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const at = Date.parse("2025-06-01T12:00:00Z");
const click = { address, chain: "base" as const, at };
const nothing = { recoveries: [], history: [] };
// Chromium's words when the service worker is stopped while it holds the answer.
const closed = new Error(
  "A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received",
);
const recovery = (sentAt: string, over: Partial<PendingRecovery> = {}): PendingRecovery => ({
  id: "r-1",
  apiUrl: "http://api.test",
  payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  nonce: `0x${"ab".repeat(32)}`,
  transaction: null,
  route: "check",
  address,
  chain: "base",
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  sentAt,
  lastAttempt: null,
  ...over,
});

describe("lostCheckOutcome", () => {
  it("names the payment written down for the click, so its report can be fetched; charged unknown", () => {
    const left = { recoveries: [recovery("2025-06-01T12:00:03Z")], history: [] };
    expect(lostCheckOutcome(closed, left, click)).toStrictEqual({
      type: "failed",
      message: backgroundStoppedMessage,
      charged: "unknown",
      recoveryId: "r-1",
    });
    const error = new MessageError({ code: "failed", message: "The background went away." });
    expect(lostCheckOutcome(error, left, click)).toMatchObject({
      message: "The background went away.",
      charged: "unknown",
    });
  });

  it("says nothing was charged when no payment of this click was written down (stopped while the wallet asked)", () => {
    // Strict: no recoveryId, and not the "payment was sent" of an unknown charge.
    expect(lostCheckOutcome(closed, nothing, click)).toStrictEqual({
      type: "failed",
      message: backgroundStoppedUnpaidMessage,
      charged: false,
      code: "background_stopped",
    });
    expect(lostCheckOutcome("timeout", nothing, click)).toMatchObject({ charged: false });
    // Another address's payment, another chain's, or one from before the click is not this one's.
    const others = [
      recovery("2025-06-01T12:00:03Z", { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
      recovery("2025-06-01T12:00:03Z", { chain: "arbitrum" }),
      recovery("2025-06-01T11:59:00Z"),
    ];
    expect(lostCheckOutcome(closed, { recoveries: others, history: [] }, click)).toMatchObject({
      charged: false,
    });
  });

  it("shows the report filed for this click when the background stopped after filing it", () => {
    const entry = exampleHistoryEntry({ address, checkedAt: new Date(at + 5_000) });
    const before = exampleHistoryEntry({ address, checkedAt: new Date(at - 60_000) });
    expect(lostCheckOutcome(closed, { recoveries: [], history: [entry] }, click)).toEqual({
      type: "report",
      entry,
    });
    expect(lostCheckOutcome(closed, { recoveries: [], history: [before] }, click)).toMatchObject({
      type: "failed",
      charged: false,
    });
  });
});
