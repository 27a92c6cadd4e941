import { describe, expect, it } from "vitest";
import type { ChainFacts } from "../api/report";
import { chains } from "../chains/chains";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { findTokenMismatches } from "./findTokenMismatches";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("findTokenMismatches", () => {
  it.each([
    [
      "nothing unusual",
      wallet,
      readableFacts("base", { usdc: "1" }),
      [readableFacts("arbitrum")],
      [],
    ],
    [
      "a token contract elsewhere",
      wallet,
      readableFacts("base"),
      [readableFacts("polygon", { kind: "token" })],
      [
        [
          "token_contract",
          ["polygon"],
          "This address is a token contract on Polygon PoS, not a wallet.",
        ],
      ],
    ],
    [
      "a known stablecoin whose chain is unreadable",
      chains.optimism.usdt.address,
      readableFacts("base"),
      [unreadableFacts("optimism")],
      [
        [
          "token_contract",
          ["optimism"],
          "This address is a token contract on OP Mainnet, not a wallet.",
        ],
      ],
    ],
    [
      "stablecoins only elsewhere",
      wallet,
      readableFacts("base", { native: "1" }),
      [readableFacts("ethereum", { usdc: "3", usdt: "4" })],
      [
        [
          "stablecoin_elsewhere",
          ["ethereum"],
          "Holds USDC and USDT on Ethereum, but no stablecoin on Base.",
        ],
      ],
    ],
    [
      "no stablecoin flag when the target cannot be read",
      wallet,
      unreadableFacts("base"),
      [readableFacts("ethereum", { usdc: "3" })],
      [],
    ],
    [
      "bridged USDC on the target and elsewhere",
      wallet,
      readableFacts("base", { bridged: "2" }),
      [
        readableFacts("arbitrum", { bridged: "1" }),
        readableFacts("polygon", { bridged: "1", usdc: "1" }),
      ],
      [
        [
          "bridged_usdc",
          ["base", "arbitrum"],
          "Holds bridged USDC (USDbC on Base and USDC.e on Arbitrum One) but no native USDC there.",
        ],
      ],
    ],
  ] as [string, string, ChainFacts, ChainFacts[], [string, string[], string][]][])(
    "%s",
    (_, address, target, others, expected) => {
      const mismatches = findTokenMismatches({ address, target, others });
      expect(mismatches.map(({ code, chains, message }) => [code, chains, message])).toEqual(
        expected,
      );
    },
  );
});
