import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { paymentNetworks, usdcOn } from "./paymentNetworks";

describe("paymentNetworks", () => {
  it("keeps mainnet payments exactly on Base USDC, with its EIP-712 domain", () => {
    expect(paymentNetworks.mainnet.network).toBe("eip155:8453");
    expect(usdcOn("eip155:8453")).toEqual({
      address: chains.base.usdc.address,
      domain: nativeUsdcDomain,
    });
  });

  it("pays on Base Sepolia's USDC (domain name USDC) through the public facilitator in testnet mode", () => {
    expect(usdcOn(paymentNetworks.testnet.network)).toEqual({
      address: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      domain: { name: "USDC", version: "2" },
    });
    expect(paymentNetworks.testnet.facilitatorUrl).toBe("https://x402.org/facilitator");
  });
});
