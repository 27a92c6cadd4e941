import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  maxPaymentHeaderBytes,
  type PaymentHeaderReading,
  paymentHeaderOf,
} from "./paymentHeaderOf";

const paid = encodePaymentSignatureHeader({
  x402Version: 2,
  payload: {
    signature: "0x00",
    authorization: {
      from: "0x1111111111111111111111111111111111111111",
      to: "0x2222222222222222222222222222222222222222",
      value: "10000",
      validAfter: "0",
      validBefore: "1900000000",
      nonce: `0x${"ab".repeat(32)}`,
    },
  },
} as unknown as PaymentPayload);

/** What two steps of one request (the rate limit, then the intake) read, and whether it is one reading. */
async function readTwice(headers: Record<string, string>) {
  const seen: Array<PaymentHeaderReading | null> = [];
  const app = new Hono();
  app.use("*", async (c, next) => {
    seen.push(paymentHeaderOf(c));
    await next();
  });
  app.post("/check", (c) => {
    seen.push(paymentHeaderOf(c));
    return c.text("ok");
  });
  await app.request("/check", { method: "POST", headers });
  return { first: seen[0], same: seen[0] === seen[1] };
}

describe("paymentHeaderOf", () => {
  it("decodes the header once per request: the second step gets the first one's reading", async () => {
    const { first, same } = await readTwice({ "payment-signature": paid });
    expect(first?.payment).toMatchObject({ kind: "exact" });
    expect(same).toBe(true);
  });

  it("reads the documented X-Payment alias", async () => {
    const { first } = await readTwice({ "x-payment": paid });
    expect(first?.payment).toMatchObject({ kind: "exact" });
  });

  it("refuses an oversized header before decoding, and reads junk as paying nothing", async () => {
    const large = await readTwice({ "payment-signature": "A".repeat(maxPaymentHeaderBytes + 1) });
    expect(large.first?.payment).toBe("too_large");
    const junk = await readTwice({ "payment-signature": "not-a-payment" });
    expect(junk.first?.payment).toBeNull();
    expect((await readTwice({})).first).toBeNull();
  });
});
