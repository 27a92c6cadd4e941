import { describe, expect, it } from "vitest";
import type { Settlement } from "../PresendResult";
import { paidAnswerFixture } from "../testing/paidAnswerFixture";
import { verifyPaymentReceipt } from "./verifyPaymentReceipt";

describe("verifyPaymentReceipt", () => {
  it("verifies the signed receipt for the settlement it names", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    expect(await verifyPaymentReceipt(answer, settlement, pin.jwk)).toBe("verified");
  });

  it("matches the payer and transaction in any case", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const upper = (hex: `0x${string}`): `0x${string}` => `0x${hex.slice(2).toUpperCase()}`;
    const recased = {
      ...settlement,
      payer: upper(settlement.payer),
      transaction: upper(settlement.transaction),
    };
    expect(await verifyPaymentReceipt(answer, recased, pin.jwk)).toBe("verified");
  });

  it.each([
    ["payer", { payer: `0x${"ab".repeat(20)}` }],
    ["network", { network: "eip155:1" }],
    ["transaction", { transaction: `0x${"cd".repeat(32)}` }],
  ] as const)(
    "refuses a receipt for another payment (another %s)",
    async (_field, change: Partial<Settlement>) => {
      const { answer, settlement, pin } = await paidAnswerFixture();
      expect(await verifyPaymentReceipt(answer, { ...settlement, ...change }, pin.jwk)).toBe(
        "The signed receipt names another payment than the settlement.",
      );
    },
  );

  it("refuses a receipt signed with another key", async () => {
    const { answer, settlement } = await paidAnswerFixture();
    const other = await paidAnswerFixture();
    expect(await verifyPaymentReceipt(answer, settlement, other.pin.jwk)).toBe(
      "The receipt's signature does not verify with the pinned attestation key.",
    );
  });

  it("refuses an answer without a receipt", async () => {
    const { settlement, pin } = await paidAnswerFixture();
    const bare = new Response("{}", { status: 200 });
    expect(await verifyPaymentReceipt(bare, settlement, pin.jwk)).toBe(
      "The payment response carries no signed receipt.",
    );
  });
});
