import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { termsChangedMessage } from "./termsChangedMessage";

const paid: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
  maxTimeoutSeconds: 60,
  extra: {},
};
const refusal = (accepts: PaymentRequirements[], status = 402) =>
  new Response("{}", {
    status,
    headers: {
      "payment-required": encodePaymentRequiredHeader({
        x402Version: 2,
        error: "No matching payment requirements",
        resource: { url: "http://api.test/check", description: "", mimeType: "application/json" },
        accepts,
      }),
    },
  });

describe("termsChangedMessage", () => {
  it("is null while the refusal still offers the terms that were paid", () => {
    expect(
      termsChangedMessage(refusal([{ ...paid, payTo: paid.payTo.toLowerCase() }]), paid),
    ).toBeNull();
    expect(termsChangedMessage(refusal([{ ...paid, amount: "1" }], 400), paid)).toBeNull();
  });

  it("names a new price and a new payee", () => {
    const payTo = "0x1111111111111111111111111111111111111111";
    expect(termsChangedMessage(refusal([{ ...paid, amount: "20000", payTo }]), paid)).toBe(
      `The server's terms changed after its offer (the price is now $0.02, not $0.01; it now pays ${payTo}, not ${paid.payTo}): this payment was refused and nothing was charged. Check again to see and pay the current terms.`,
    );
  });

  it("says the scheme paid with is no longer offered (channels switched off)", () => {
    expect(termsChangedMessage(refusal([paid]), { ...paid, scheme: "batch-settlement" })).toBe(
      "The server stopped offering the batch-settlement payment this check was signed for: nothing was charged. Check again to pay as it now asks.",
    );
  });
});
