import { describe, expect, it } from "vitest";
import { channelReceiptNonce } from "./channelReceiptNonce";

const channel = `0x${"ab".repeat(32)}` as const;

describe("channelReceiptNonce", () => {
  it("is one bytes32 per voucher and payment id, the same wherever it is computed", () => {
    const nonce = channelReceiptNonce(channel, 30_000n, "pay_0123456789abcdef");
    expect(nonce).toMatch(/^0x[0-9a-f]{64}$/);
    expect(channelReceiptNonce(channel, 30_000n, "pay_0123456789abcdef")).toBe(nonce);
    expect(channelReceiptNonce(channel, 40_000n, "pay_0123456789abcdef")).not.toBe(nonce);
    expect(channelReceiptNonce(channel, 30_000n, "pay_0123456789abcdeg")).not.toBe(nonce);
  });
});
