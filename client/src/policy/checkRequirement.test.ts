import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { baseNetwork, baseUsdc, checkRequirement, maxValiditySeconds } from "./checkRequirement";

const good: PaymentRequirements = {
  scheme: "exact",
  network: baseNetwork,
  asset: baseUsdc,
  amount: "10000",
  payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};

describe("checkRequirement", () => {
  it("accepts exact USDC on Base with a short validity, even among other offers", () => {
    const other = { ...good, network: "eip155:1" as const };
    expect(checkRequirement([other, good])).toEqual({ type: "accepted", requirement: good });
    expect(checkRequirement([{ ...good, asset: good.asset.toLowerCase() }]).type).toBe("accepted");
    const named = { ...good, extra: { ...good.extra, assetTransferMethod: "eip3009" } };
    expect(checkRequirement([named]).type).toBe("accepted");
  });

  it.each([
    ["unexpected_challenge", { scheme: "upto" }],
    ["network_mismatch", { network: "eip155:1" }],
    ["asset_mismatch", { asset: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" }],
    ["validity_too_long", { maxTimeoutSeconds: maxValiditySeconds + 1 }],
    ["validity_too_long", { maxTimeoutSeconds: 0 }],
    ["validity_too_long", { maxTimeoutSeconds: 1.5 }],
    ["unexpected_challenge", { amount: "-1" }],
    ["unexpected_challenge", { payTo: "0x1234" }],
    ["transfer_method_mismatch", { extra: { ...good.extra, assetTransferMethod: "permit2" } }],
    ["transfer_method_mismatch", { extra: { ...good.extra, assetTransferMethod: "EIP3009" } }],
  ] as const)("refuses %s (%o)", (code, change) => {
    expect(checkRequirement([{ ...good, ...change } as PaymentRequirements])).toMatchObject({
      type: "refused",
      code,
    });
  });

  it("refuses an empty accepts list", () => {
    expect(checkRequirement([])).toMatchObject({ type: "refused", code: "unexpected_challenge" });
  });
});
