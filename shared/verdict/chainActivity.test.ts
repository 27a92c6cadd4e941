import { describe, expect, it } from "vitest";
import type { ChainFacts } from "../api/report";
import { chainActivity } from "./chainActivity";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";

describe("chainActivity", () => {
  it.each([
    ["a fresh EOA", readableFacts("base"), { idle: true, active: false, holdsFunds: false }],
    ["an EOA that sent", readableFacts("base", { nonce: 3 }), { idle: false, active: true }],
    ["an EOA holding ETH", readableFacts("base", { native: "0.1" }), { holdsFunds: true }],
    ["an EOA holding USDT", readableFacts("base", { usdt: "5" }), { holdsFunds: true }],
    ["an EOA holding USDbC", readableFacts("base", { bridged: "5" }), { holdsFunds: true }],
    ["a Safe", readableFacts("base", { kind: "safe" }), { idle: false, active: true }],
    [
      "an unreadable chain",
      unreadableFacts("base"),
      { readable: false, idle: false, active: false, hasCode: null, outgoingTxs: null },
    ],
    [
      "a readable chain with an unknown nonce",
      { ...readableFacts("base"), outgoingTxs: null } satisfies ChainFacts,
      { idle: false, active: false },
    ],
  ])("%s", (_, facts, expected) => {
    expect(chainActivity(facts)).toMatchObject(expected);
  });
});
