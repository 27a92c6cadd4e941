import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { readPaymentHeader } from "./readPaymentHeader";

const authorization = {
  from: "0x1111111111111111111111111111111111111111",
  to: "0x2222222222222222222222222222222222222222",
  value: "10000",
  validAfter: "0",
  validBefore: "1900000000",
  nonce: `0x${"ab".repeat(32)}`,
};
const payload = {
  x402Version: 2,
  payload: { authorization, signature: "0x00" },
} as unknown as PaymentPayload;

describe("readPaymentHeader", () => {
  it("reads the payload and its EIP-3009 authorization", () => {
    expect(readPaymentHeader(encodePaymentSignatureHeader(payload))).toMatchObject({
      kind: "exact",
      authorization: {
        payer: authorization.from,
        payTo: authorization.to,
        nonce: authorization.nonce,
        value: 10_000n,
        validAfter: 0n,
        validBefore: 1_900_000_000n,
      },
    });
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["not base64", "%%%"],
    ["base64 of not JSON", Buffer.from("junk").toString("base64")],
    ["base64 JSON null", Buffer.from("null").toString("base64")],
    [
      "a payload without an authorization",
      encodePaymentSignatureHeader({ ...payload, payload: { signature: "0x00" } }),
    ],
  ])("is null for a header that is %s", (_, header) => {
    expect(readPaymentHeader(header)).toBeNull();
  });
});
