import { describe, expect, it, vi } from "vitest";
import { createPaymentProgress } from "./createPaymentProgress";

const verified = {
  type: "verified" as const,
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as const,
  fingerprint: "ab:cd",
  pinnedNow: true,
};
const sender = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" as const;

describe("createPaymentProgress", () => {
  it("shows nothing of the wallet before the offer was verified, and knows no price", () => {
    const shown = vi.fn();
    const progress = createPaymentProgress(shown);
    progress.askingWallet({ primaryType: "TransferWithAuthorization", message: {} }, sender);
    expect(shown).not.toHaveBeenCalled();
    expect(progress.price()).toBeNull();
  });

  it("shows the attested terms when the wallet is asked, the sender with them", () => {
    const shown = vi.fn();
    const progress = createPaymentProgress(shown);
    progress.onEvent(verified);
    expect(progress.price()).toBe(10_000n);
    progress.askingWallet({ primaryType: "TransferWithAuthorization", message: {} }, sender);
    expect(shown).toHaveBeenCalledWith({
      step: "waiting-wallet",
      from: sender,
      amount: "10000",
      payTo: verified.payTo,
      keyFingerprint: "ab:cd",
      keyPinnedNow: true,
    });
  });

  it("shows a channel deposit as one, with its amount, and no sender for one's own address", () => {
    const shown = vi.fn();
    const progress = createPaymentProgress(shown);
    progress.onEvent(verified);
    progress.askingWallet(
      { primaryType: "ReceiveWithAuthorization", message: { value: 500_000n } },
      undefined,
    );
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({ step: "waiting-wallet", deposit: "500000" }),
    );
    expect(shown.mock.calls[0]?.[0]).not.toHaveProperty("from");
  });

  it("shows paying, then checking, once the payment goes out", () => {
    const shown = vi.fn();
    createPaymentProgress(shown).onEvent({
      type: "paying",
      authorization: {
        payer: "0x9Cb2e6859F097014298CC31c8d39D4217502960f",
        nonce: `0x${"1".repeat(64)}`,
        amount: "10000",
        payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
      },
      paymentId: null,
    });
    expect(shown.mock.calls).toEqual([[{ step: "paying" }], [{ step: "checking" }]]);
  });
});
