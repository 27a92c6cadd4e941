import { describe, expect, it } from "vitest";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { summarizeGas } from "./summarizeGas";

describe("summarizeGas", () => {
  it.each([
    [
      "Base at 1 gwei, with an L1 data fee of 0.00001 ETH a send",
      readableFacts("base"),
      "Sending ETH costs about 0.000031 ETH on Base including the L1 data fee; a token transfer about 0.000075 ETH.",
    ],
    [
      "OP Mainnet whose GasPriceOracle could not be read",
      readableFacts("optimism", { l1DataFeeWei: null }),
      "Sending ETH costs about 0.000021 ETH on OP Mainnet, not counting the L1 data fee (it could not be read); a token transfer about 0.000065 ETH.",
    ],
    [
      "Arbitrum One, no OP-stack chain: no L1 data fee is named",
      readableFacts("arbitrum"),
      "Sending ETH costs about 0.000021 ETH on Arbitrum One; a token transfer about 0.000065 ETH.",
    ],
    [
      "Polygon PoS at 30 gwei, in POL",
      readableFacts("polygon", { gasPriceWei: 30_000_000_000n }),
      "Sending POL costs about 0.00063 POL on Polygon PoS; a token transfer about 0.002 POL.",
    ],
    [
      "a Safe on Base, whose receive code makes a native send use 27,329 gas",
      readableFacts("base", { kind: "safe", nativeTransferGas: 27_329n }),
      "Sending ETH costs about 0.000037 ETH on Base including the L1 data fee (27,329 gas: its code runs when it receives ETH, so a send limited to 21,000 gas fails); a token transfer about 0.000075 ETH.",
    ],
    [
      "a report made before the native send's gas was read",
      (() => {
        const facts = readableFacts("base");
        if (facts.gas) delete facts.gas.nativeTransferGas;
        return facts;
      })(),
      "Sending ETH costs about 0.000031 ETH on Base including the L1 data fee; a token transfer about 0.000075 ETH.",
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
