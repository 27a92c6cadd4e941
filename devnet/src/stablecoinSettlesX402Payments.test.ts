import { chains } from "@presend/shared/chains/chains";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactEvmClientScheme } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { devnetFacilitatorSigner } from "./devnetFacilitatorSigner";
import { sharedPaymentWorld } from "./testing/sharedWorld";
import { usdcBalanceOnBase } from "./usdcBalanceOnBase";

// The official x402 client and facilitator (the ones the server uses) against the devnet USDC:
// the token must verify and settle an x402 v2 "exact" payment exactly like Base USDC does.
// A payment lane of the run's shared world: this file's payer, facilitator and payTo are its own.
const { world } = sharedPaymentWorld();
const { payer: payerAccount, facilitator: facilitatorAccount, payTo } = world.accounts;

describe("devnet USDC settles x402 exact payments with the official @x402/evm facilitator", () => {
  let client: DevnetClient;
  const requirements: PaymentRequirements = {
    scheme: "exact",
    network: "eip155:8453",
    asset: chains.base.usdc.address,
    amount: "10000",
    payTo: payTo.address,
    maxTimeoutSeconds: 60,
    extra: { name: "USD Coin", version: "2" },
  };

  beforeAll(() => {
    client = devnetClient("base", world.chains.base.rpcUrl);
  });

  const facilitator = () =>
    new ExactEvmFacilitatorScheme(
      devnetFacilitatorSigner(client, privateKeyToAccount(facilitatorAccount.privateKey)),
    );

  async function payment(): Promise<PaymentPayload> {
    const payer = privateKeyToAccount(payerAccount.privateKey);
    const scheme = new ExactEvmClientScheme(toClientEvmSigner(payer, client));
    const created = await scheme.createPaymentPayload(2, requirements);
    return { ...created, accepted: requirements };
  }

  const payToBalance = () => usdcBalanceOnBase(world.chains.base)(payTo.address);

  it("verifies and settles a payment, then refuses to settle it again", async () => {
    const scheme = facilitator();
    const payload = await payment();
    const before = await payToBalance();

    expect(await scheme.verify(payload, requirements)).toMatchObject({ isValid: true });
    const settled = await scheme.settle(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: "eip155:8453" });
    expect(await payToBalance()).toBe(before + 10_000n);

    const replay = await facilitator().verify(payload, requirements);
    expect(replay.isValid).toBe(false);
    expect(replay.invalidReason).toMatch(/nonce/i);
  });

  it("rejects a payment whose token domain version differs from the token's", async () => {
    const scheme = facilitator();
    const wrongVersion = { ...requirements, extra: { name: "USD Coin", version: "1" } };
    const payer = privateKeyToAccount(payerAccount.privateKey);
    const created = await new ExactEvmClientScheme(
      toClientEvmSigner(payer, client),
    ).createPaymentPayload(2, wrongVersion);
    const result = await scheme.verify({ ...created, accepted: wrongVersion }, wrongVersion);
    expect(result.isValid).toBe(false);
  });
});
