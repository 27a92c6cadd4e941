import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../http/appEnv";
import { maxPaymentHeaderBytes } from "./paymentHeaderOf";
import { paymentIntake } from "./paymentIntake";

const now = 1_900_000_000;
const header = (validBefore: number, validAfter = now - 600, extensions = {}) =>
  encodePaymentSignatureHeader({
    x402Version: 2,
    payload: {
      authorization: {
        from: "0x1111111111111111111111111111111111111111",
        to: "0x2222222222222222222222222222222222222222",
        value: "10000",
        validAfter: String(validAfter),
        validBefore: String(validBefore),
        nonce: `0x${"ab".repeat(32)}`,
      },
      signature: "0x00",
    },
    extensions,
  } as unknown as PaymentPayload);

// What the later steps see: the payment read into the context, or the reason it was set aside
// and the header gone (so the official middleware answers the plain challenge).
const app = new Hono<AppEnv>();
app.post("/check", paymentIntake({ clock: () => now }), (c) =>
  c.json({
    payment: c.get("payment")
      ? { ...c.get("payment"), authorization: c.get("payment")?.authorization.nonce }
      : null,
    // JSON has no bigint: the ceiling is shown as its decimal string.
    channelPayment: c.get("channelPayment")
      ? JSON.parse(
          JSON.stringify(c.get("channelPayment"), (_, v) =>
            typeof v === "bigint" ? String(v) : v,
          ),
        )
      : null,
    rejection: c.get("paymentRejection") ?? null,
    header: c.req.header("payment-signature") ?? null,
  }),
);

const channelId = `0x${"cd".repeat(32)}`;
const voucherHeader = (extensions = {}) =>
  encodePaymentSignatureHeader({
    x402Version: 2,
    payload: {
      type: "voucher",
      channelConfig: { payer: "0x1111111111111111111111111111111111111111" },
      voucher: { channelId, maxClaimableAmount: "30000", signature: "0x00" },
    },
    extensions,
  } as unknown as PaymentPayload);
const send = async (headers: Record<string, string>, body = { address: "0xAb", chain: "base" }) => {
  const response = await app.request("/check", {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return response.json();
};

describe("paymentIntake", () => {
  it("reads a payment once, from PAYMENT-SIGNATURE or its X-Payment alias, with its payment id and request hash", async () => {
    const extensions: Record<string, unknown> = {
      "payment-identifier": { info: { required: false } },
    };
    const id = generatePaymentId();
    appendPaymentIdentifierToExtensions(extensions, id);
    for (const name of ["payment-signature", "x-payment"]) {
      const seen = await send({ [name]: header(now + 60, now - 600, extensions) });
      expect(seen.rejection).toBeNull();
      expect(seen.payment).toMatchObject({ authorization: `0x${"ab".repeat(32)}`, paymentId: id });
      expect(seen.payment.requestHash).toMatch(/^[0-9a-f]{64}$/);
      expect(seen.header).not.toBeNull();
    }
    // The same ask written with the default chain has the same hash; another address does not.
    const a = await send(
      { "payment-signature": header(now + 60) },
      { address: "0xAb", chain: "base" },
    );
    const b = await send({ "payment-signature": header(now + 60) }, { address: "0xAb" } as never);
    const c = await send(
      { "payment-signature": header(now + 60) },
      { address: "0xCd", chain: "base" },
    );
    expect(a.payment.requestHash).toBe(b.payment.requestHash);
    expect(c.payment.requestHash).not.toBe(a.payment.requestHash);
  });

  it("hashes the sender into the request: another sender, or none, is another request; its case is not", async () => {
    const hashOf = async (body: Record<string, string>) =>
      (await send({ "payment-signature": header(now + 60) }, body as never)).payment.requestHash;
    const sender = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";
    const without = await hashOf({ address: "0xAb", chain: "base" });
    const withSender = await hashOf({ address: "0xAb", chain: "base", from: sender });
    const other = await hashOf({
      address: "0xAb",
      chain: "base",
      from: "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7",
    });
    expect(withSender).not.toBe(without);
    expect(other).not.toBe(withSender);
    expect(other).not.toBe(without);
    expect(
      await hashOf({ address: "0xAb", chain: "base", from: ` ${sender.toLowerCase()} ` }),
    ).toBe(withSender);
  });

  it("reads a channel voucher once into channelPayment, with its payment id, and leaves the header to the official middleware", async () => {
    const extensions: Record<string, unknown> = {
      "payment-identifier": { info: { required: false } },
    };
    const id = generatePaymentId();
    appendPaymentIdentifierToExtensions(extensions, id);
    const seen = await send({ "payment-signature": voucherHeader(extensions) });
    expect(seen).toMatchObject({
      payment: null,
      rejection: null,
      channelPayment: {
        channel: {
          type: "voucher",
          payer: "0x1111111111111111111111111111111111111111",
          channelId,
          cumulative: "30000",
        },
        paymentId: id,
      },
    });
    expect(seen.header).not.toBeNull();
    // Without a payment id the ledger makes one of its own.
    const bare = await send({ "x-payment": voucherHeader() });
    expect(bare.channelPayment).toMatchObject({ channel: { channelId }, paymentId: null });
  });

  it.each([
    ["payment_header_too_large", "x".repeat(maxPaymentHeaderBytes + 1)],
    ["invalid_payment_header", "not-a-payment"],
    ["authorization_valid_too_long", header(now + 60 + 30 + 1)],
    ["authorization_not_yet_valid", header(now + 60, now + 31)],
  ])("sets aside a header with %s, removing it", async (reason, value) => {
    const seen = await send({ "payment-signature": value });
    expect(seen).toEqual({ payment: null, channelPayment: null, rejection: reason, header: null });
  });

  // A payer whose clock runs ahead of this server's signs bounds that look early or long here:
  // within the slack they are read, not refused (the boundaries just above are refused).
  it.each([
    ["a payer 5 s ahead (the official client's bounds)", header(now + 5 + 60, now + 5 - 600)],
    ["validBefore at the slack's edge", header(now + 60 + 30)],
    ["validAfter at the slack's edge", header(now + 60, now + 30)],
  ])("reads an authorization from %s", async (_, value) => {
    const seen = await send({ "payment-signature": value });
    expect(seen.rejection).toBeNull();
    expect(seen.payment).toMatchObject({ authorization: `0x${"ab".repeat(32)}` });
  });

  it("passes a request without a payment untouched", async () => {
    expect(await send({})).toEqual({
      payment: null,
      channelPayment: null,
      rejection: null,
      header: null,
    });
  });
});
