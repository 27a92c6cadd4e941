import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { decodePaymentPayload } from "./decodePaymentPayload";

const payload = (amount: string): PaymentPayload => ({
  x402Version: 2,
  accepted: {
    scheme: "batch-settlement",
    network: "eip155:8453",
    amount,
    asset: `0x${"5".repeat(40)}`,
    payTo: `0x${"3".repeat(40)}`,
    maxTimeoutSeconds: 60,
    extra: {},
  },
  payload: { type: "voucher" },
});

describe("decodePaymentPayload", () => {
  it("decodes a header once: the same header again gets the same payload", () => {
    const header = encodePaymentSignatureHeader(payload("10000"));
    const first = decodePaymentPayload(header);
    expect(first).toEqual(payload("10000"));
    expect(decodePaymentPayload(header)).toBe(first);
  });

  it("decodes another header afresh, and answers null for what is no payment", () => {
    const first = decodePaymentPayload(encodePaymentSignatureHeader(payload("10000")));
    const second = decodePaymentPayload(encodePaymentSignatureHeader(payload("50000")));
    expect(second).not.toBe(first);
    expect(second?.accepted.amount).toBe("50000");
    expect(decodePaymentPayload("not base64 at all!")).toBeNull();
    expect(decodePaymentPayload(Buffer.from("{oops").toString("base64"))).toBeNull();
  });
});
