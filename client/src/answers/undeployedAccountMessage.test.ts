import { describe, expect, it } from "vitest";
import { undeployedAccountMessage } from "./undeployedAccountMessage";

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("undeployedAccountMessage", () => {
  it("names the payer, says nothing was charged and what to do, for exact and a channel's deposit", () => {
    for (const reason of [
      "eip6492_factory_not_allowed",
      "invalid_batch_settlement_evm_eip6492_factory_not_allowed",
    ]) {
      const said = undeployedAccountMessage(reason, payer);
      expect(said).toContain(
        `The paying address ${payer} is a smart account that is not deployed on Base yet`,
      );
      expect(said).toContain("nothing was charged");
      expect(said).toContain("Make one transaction from this account on Base first");
    }
  });

  it("is null for every other refusal", () => {
    for (const reason of [
      undefined,
      "invalid_exact_evm_insufficient_balance",
      "invalid_signature",
    ]) {
      expect(undeployedAccountMessage(reason, payer)).toBeNull();
    }
  });
});
