import { describe, expect, it } from "vitest";
import type { ChainFacts } from "../api/report";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { detectWrongNetwork } from "./detectWrongNetwork";

const fresh = readableFacts("base");

describe("detectWrongNetwork", () => {
  it.each([
    ["sent on arbitrum", fresh, [readableFacts("arbitrum", { nonce: 1 })], ["arbitrum"]],
    ["funds on polygon", fresh, [readableFacts("polygon", { usdt: "1" })], ["polygon"]],
    ["a Safe on optimism", fresh, [readableFacts("optimism", { kind: "safe" })], ["optimism"]],
    ["unused everywhere", fresh, [readableFacts("arbitrum")], []],
    ["the other chain unreadable", fresh, [unreadableFacts("arbitrum")], []],
    [
      "the target already used",
      readableFacts("base", { native: "1" }),
      [readableFacts("arbitrum", { nonce: 1 })],
      [],
    ],
    [
      "the target unreadable",
      unreadableFacts("base"),
      [readableFacts("arbitrum", { nonce: 1 })],
      [],
    ],
    ["a duplicate of the target", fresh, [readableFacts("base", { nonce: 1 })], []],
  ] as [string, ChainFacts, ChainFacts[], string[]][])("%s", (_, target, others, activeOn) => {
    expect(detectWrongNetwork(target, others)).toEqual({ flagged: activeOn.length > 0, activeOn });
  });
});
