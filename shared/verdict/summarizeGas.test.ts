import { describe, expect, it } from "vitest";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { summarizeGas } from "./summarizeGas";

describe("summarizeGas", () => {
  it.each([
    [
      "Base at 1 gwei",
      readableFacts("base"),
      "Sending ETH costs about 0.000021 ETH on Base; a token transfer about 0.000065 ETH.",
    ],
    [
      "Polygon PoS at 30 gwei, in POL",
      readableFacts("polygon", { gasPriceWei: 30_000_000_000n }),
      "Sending POL costs about 0.00063 POL on Polygon PoS; a token transfer about 0.002 POL.",
    ],
    [
      "a Safe on Base, whose receive code makes a native send use 27,329 gas",
      readableFacts("base", { kind: "safe", nativeTransferGas: 27_329n }),
      "Sending ETH costs about 0.000027 ETH on Base (27,329 gas: its code runs when it receives ETH, so a send limited to 21,000 gas fails); a token transfer about 0.000065 ETH.",
    ],
    [
      "a report made before the native send's gas was read",
      (() => {
        const facts = readableFacts("base");
        if (facts.gas) delete facts.gas.nativeTransferGas;
        return facts;
      })(),
      "Sending ETH costs about 0.000021 ETH on Base; a token transfer about 0.000065 ETH.",
    ],
    [
      "an unreadable gas price",
      readableFacts("base", { gasPriceWei: null }),
      "Gas cost on Base is unknown: the gas price could not be read.",
    ],
    [
      "an unreadable chain",
      unreadableFacts("arbitrum"),
      "Gas cost on Arbitrum One is unknown: the chain could not be read.",
    ],
  ])("%s", (_, facts, summary) => {
    const gas = summarizeGas(facts);
    expect(gas.summary).toBe(summary);
    expect(gas.nativeTransferCost).toEqual(facts.gas?.nativeTransferCost ?? null);
    expect(gas.tokenTransferCost).toEqual(facts.gas?.tokenTransferCost ?? null);
  });
});
