import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { checkChannelRequirement } from "./checkChannelRequirement";

const exact: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  asset: baseUsdc,
  amount: "10000",
  payTo: "0x1111111111111111111111111111111111111111",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};
const channel: PaymentRequirements = {
  ...exact,
  scheme: "batch-settlement",
  extra: {
    ...exact.extra,
    receiverAuthorizer: "0x2222222222222222222222222222222222222222",
    withdrawDelay: 900,
  },
};
const offered = (change: Partial<PaymentRequirements>) =>
  checkChannelRequirement([exact, { ...channel, ...change }], exact);

describe("checkChannelRequirement", () => {
  it("accepts a channel offer matching the attested exact requirement", () => {
    expect(checkChannelRequirement([exact, channel], exact)).toEqual({
      type: "accepted",
      requirement: channel,
    });
  });

  it("accepts a deposit named as EIP-3009, the package's default", () => {
    const named = { ...channel, extra: { ...channel.extra, assetTransferMethod: "eip3009" } };
    expect(checkChannelRequirement([exact, named], exact)).toMatchObject({ type: "accepted" });
  });

  it.each([
    [{ extra: { ...channel.extra, withdrawDelay: 86_400 } }],
    [{ extra: { ...channel.extra, withdrawDelay: 900 } }],
    [{ maxTimeoutSeconds: 300 }],
  ])("accepts an offer at the edge of what it allows: %o", (change) => {
    expect(offered(change)).toMatchObject({ type: "accepted" });
  });

  it("says none when no channel is offered", () => {
    expect(checkChannelRequirement([exact], exact)).toEqual({ type: "none" });
  });

  it.each([
    [{ network: "eip155:1" as const }, "network_mismatch"],
    [{ asset: "0x3333333333333333333333333333333333333333" }, "asset_mismatch"],
    [{ payTo: "0x4444444444444444444444444444444444444444" }, "payto_mismatch"],
    [{ amount: "10001" }, "price_above_attested"],
    [{ maxTimeoutSeconds: 3_600 }, "validity_too_long"],
    [{ extra: { ...channel.extra, assetTransferMethod: "permit2" } }, "transfer_method_mismatch"],
    [{ extra: { ...channel.extra, assetTransferMethod: "EIP3009" } }, "transfer_method_mismatch"],
    [{ extra: { ...channel.extra, assetTransferMethod: 3009 } }, "transfer_method_mismatch"],
    [{ extra: { ...channel.extra, withdrawDelay: 30 * 86_400 } }, "unexpected_challenge"],
    // One second beyond either bound: a deposit held a second longer than a day is refused.
    [{ extra: { ...channel.extra, withdrawDelay: 86_401 } }, "unexpected_challenge"],
    [{ extra: { ...channel.extra, withdrawDelay: 899 } }, "unexpected_challenge"],
    [{ maxTimeoutSeconds: 301 }, "validity_too_long"],
    [
      { extra: { ...channel.extra, receiverAuthorizer: `0x${"0".repeat(40)}` } },
      "unexpected_challenge",
    ],
  ])("refuses an offer with %o before signing (%s)", (change, code) => {
    expect(offered(change)).toMatchObject({ type: "refused", code });
  });
});
