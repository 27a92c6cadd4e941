import { describe, expect, it } from "vitest";
import { paidAnswerFixture } from "../testing/paidAnswerFixture";
import { verifyPaymentReceipt } from "./verifyPaymentReceipt";

describe("verifyPaymentReceipt", () => {
  it("verifies the signed receipt for the settlement it names", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    expect(await verifyPaymentReceipt(answer, settlement, pin.jwk)).toBe("verified");
  });

  it("refuses a receipt for another payment, or signed with another key", async () => {
    const { answer, settlement, pin } = await paidAnswerFixture();
    const other = await paidAnswerFixture();
    expect(
      await verifyPaymentReceipt(
        answer,
        { ...settlement, transaction: `0x${"cd".repeat(32)}` },
        pin.jwk,
      ),
    ).toBe("The signed receipt names another payment than the settlement.");
    expect(await verifyPaymentReceipt(answer, settlement, other.pin.jwk)).toBe(
      "The receipt's signature does not verify with the pinned attestation key.",
    );
  });
});
