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
const voucher = {
  type: "voucher",
  channelConfig: { payer: authorization.from },
  voucher: { channelId: `0x${"cd".repeat(32)}`, maxClaimableAmount: "30000", signature: "0x00" },
};
const deposit = {
  ...voucher,
  type: "deposit",
  deposit: {
    amount: "100000",
    authorization: {
      erc3009Authorization: {
        validAfter: "0",
        validBefore: "1900000000",
        salt: `0x${"ef".repeat(32)}`,
        signature: "0x00",
      },
    },
  },
};
const encoded = (value: object) => encodePaymentSignatureHeader(value as PaymentPayload);
const channel = (raw: object, scheme = "batch-settlement") =>
  encoded({ x402Version: 2, accepted: { scheme }, payload: raw });

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

  it("reads a channel voucher or deposit under the batch-settlement terms", () => {
    expect(readPaymentHeader(channel(voucher))).toMatchObject({
      kind: "channel",
      channel: { type: "voucher", payer: authorization.from, cumulative: 30_000n },
    });
    expect(readPaymentHeader(channel(deposit))).toMatchObject({
      kind: "channel",
      channel: { type: "deposit" },
    });
  });

  // The official facilitator takes a payload's fields for granted: each of these made it throw
  // (a 503 facilitator_unavailable) or threw here (a 500); read as no payment, they get the 402.
  it.each([
    ["signature not text", encoded({ ...payload, payload: { authorization, signature: 5 } })],
    [
      "an authorization claiming the channel terms",
      encoded({ ...payload, accepted: { scheme: "batch-settlement" } }),
    ],
    ["a voucher claiming the exact terms", channel(voucher, "exact")],
    ["a voucher whose channelConfig is null", channel({ ...voucher, channelConfig: null })],
    [
      "a deposit whose amount is not a number",
      channel({ ...deposit, deposit: { ...deposit.deposit, amount: "ten" } }),
    ],
    [
      "a deposit by Permit2 (not offered)",
      channel({
        ...deposit,
        deposit: { amount: "100000", authorization: { permit2Authorization: {} } },
      }),
    ],
  ])("is null for a payment with %s", (_, header) => {
    expect(readPaymentHeader(header)).toBeNull();
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
