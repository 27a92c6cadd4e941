import { describe, expect, it } from "vitest";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { unknownFacts } from "./unknownFacts";

describe("unknownFacts", () => {
  it("is empty for fully read facts and for an unreadable chain (that has its own reason)", () => {
    expect(unknownFacts(readableFacts("base"))).toEqual([]);
    expect(unknownFacts(unreadableFacts("base"))).toEqual([]);
  });

  it("names null balances, a wallet's unknown activity and what the reader listed", () => {
    const facts = {
      ...readableFacts("base", { kind: "safe" }),
      usdt: null,
      usdcBridged: null,
      outgoingTxs: null,
      unknowns: ["the Safe's nonce"],
    };
    expect(unknownFacts(facts)).toEqual([
      "the USDT balance",
      "the bridged USDC balance",
      "the outgoing transaction count",
      "the Safe's nonce",
    ]);
  });

  it("does not ask a token for outgoing activity, and has no bridged key on ethereum", () => {
    const token = { ...readableFacts("ethereum", { kind: "token" }), outgoingTxs: null };
    expect(unknownFacts(token)).toEqual([]);
  });

  it("names what a Safe or smart account does with a deposit when the test deposit did not run", () => {
    const notRun = {
      outcome: "unavailable",
      amountWei: "1000",
      error: "method not found",
    } as const;
    for (const kind of ["safe", "smart-account"] as const) {
      const facts = { ...readableFacts("base", { kind }), receiveSimulation: notRun };
      expect(unknownFacts(facts)).toEqual([
        "what it does with a deposit (the test deposit could not be run)",
      ]);
    }
    // A plain EOA runs no code on a deposit: the simulation could not tell anything more.
    const eoa = { ...readableFacts("base", { kind: "eoa" }), receiveSimulation: notRun };
    expect(unknownFacts(eoa)).toEqual([]);
  });
});
