import { routePrices } from "@presend/shared/pricing/routePrices";
import { describe, expect, it } from "vitest";
import { devnetPrivateKey } from "../devnetPrivateKey";
import { sharedPaymentWorld } from "../testing/sharedWorld";
import { usdcBalanceOnBase } from "../usdcBalanceOnBase";
import { measureSettlementCost } from "./measureSettlementCost";

// A payment lane of the shared world: this file's payer, facilitator (and its nonces) and payTo.
const { world, lane } = sharedPaymentWorld();

describe("measureSettlementCost", () => {
  it("settles n checks in n transactions with exact and in 3 with a channel, for less gas", async () => {
    const checks = 10;
    const payToBalance = usdcBalanceOnBase(world.chains.base);
    const before = await payToBalance(lane.payTo.address);
    const { exact, channel } = await measureSettlementCost({
      rpcUrl: world.chains.base.rpcUrl,
      payerKey: lane.payer.privateKey,
      sessionKey: devnetPrivateKey(`lane-${lane.index}-session-key`),
      facilitatorKey: lane.facilitator.privateKey,
      receiverAuthorizerKey: devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`),
      payTo: lane.payTo.address,
      checks,
    });
    expect(exact).toMatchObject({ checks, transactions: checks });
    expect(channel).toMatchObject({ checks, transactions: 3 });
    expect(exact.gasUsed).toBeGreaterThan(0n);
    expect(channel.gasUsed).toBeLessThan(exact.gasUsed);
    // Both ways paid payTo in full: the measurement settled real money, not a simulation.
    expect(await payToBalance(lane.payTo.address)).toBe(
      before + 2n * BigInt(checks) * routePrices.check,
    );
  });
});
