import type { ChannelPaymentOptions, PaidResult, SentAuthorization } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import type { Hex } from "viem";
import { describe, expect, it, vi } from "vitest";
import { channelPaymentFor } from "./channelPaymentFor";

const typedData = {
  domain: {},
  types: {},
  primaryType: "Voucher",
  message: { channelId: `0x${"cd".repeat(32)}`, maxClaimableAmount: 30_000n },
};
const notCharged = (code: string): PaidResult<unknown> => ({
  type: "not_charged",
  code,
  status: 402,
  message: "refused",
  charged: false,
  paymentId: null,
});

function setup(sign: () => Promise<Hex>) {
  const options: ChannelPaymentOptions = {
    voucherSigner: {
      address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      signTypedData: vi.fn(sign),
    },
  };
  const sent: SentAuthorization[] = [];
  const payment = channelPaymentFor(options, async (authorization) => {
    sent.push(authorization);
  });
  return { options, payment, sent };
}

describe("channelPaymentFor", () => {
  it("signs with the session key and writes each voucher down before it leaves", async () => {
    const { options, payment, sent } = setup(async () => "0x01");
    expect(await payment.options.voucherSigner.signTypedData(typedData)).toBe("0x01");
    expect(options.voucherSigner.signTypedData).toHaveBeenCalledWith(typedData);
    const authorization = { payer: "0x1", nonce: "0x2" } as unknown as SentAuthorization;
    await payment.options.beforeSend?.(authorization);
    expect(sent).toEqual([authorization]);
  });

  // Any other refusal leaves the channel as it is: calling it out of step would give up a
  // channel that still holds the person's deposit, and tell them a wrong reason.
  it("calls a channel out of step on the scheme's refusals of a voucher out of step, and only then", () => {
    const { payment } = setup(async () => "0x01");
    expect(
      payment.outOfStep(notCharged("invalid_batch_settlement_evm_cumulative_amount_mismatch")),
    ).toBe(true);
    expect(payment.outOfStep(notCharged("payment_invalid"))).toBe(false);
    const refused: PaidResult<unknown> = {
      type: "refused",
      code: "cap_reached",
      message: "over the cap",
      charged: false,
      paymentId: null,
    };
    expect(payment.outOfStep(refused)).toBe(false);
  });

  it("calls it out of step when the session key refused a voucher it could not prove", async () => {
    const refusal = new PaymentError("not proven", { code: "channel_out_of_step" });
    const { payment } = setup(() => Promise.reject(refusal));
    await expect(payment.options.voucherSigner.signTypedData(typedData)).rejects.toBe(refusal);
    expect(payment.outOfStep(notCharged("payment_failed"))).toBe(true);
  });

  it("does not for any other refusal of the session key", async () => {
    const { payment } = setup(() => Promise.reject(new PaymentError("locked")));
    await expect(payment.options.voucherSigner.signTypedData(typedData)).rejects.toThrow();
    expect(payment.outOfStep(notCharged("payment_failed"))).toBe(false);
  });
});
