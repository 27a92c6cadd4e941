import { describe, expect, it } from "vitest";
import type { ChainFacts } from "../api/report";
import { readableFacts } from "./chainFacts.test-helpers";
import { decideVerdict } from "./decideVerdict";
import { recipientFingerprint } from "./recipientFingerprint";

const address = "0xAbcd999999999999999999999999999999991234";
const checksum = { status: "valid", message: "Address checksum is correct." } as const;

function sprayed(zero: number, dust: number, counterparties: number, nonce = 0): ChainFacts {
  return {
    ...readableFacts("base", { nonce }),
    history: {
      status: "read",
      tokens: ["USDC"],
      fromBlock: "0",
      toBlock: "10",
      native: { status: "not_asked" },
      sender: null,
      recipient: {
        transfers: zero + dust,
        zeroValueTransfers: zero,
        dustTransfers: dust,
        zeroOrDustCounterparties: counterparties,
        sentTo: [],
      },
    },
  };
}

describe("recipientFingerprint", () => {
  it.each([
    { name: "two planted transfers: an ordinary address", facts: sprayed(2, 0, 2), level: null },
    {
      name: "zero-value transfers with five addresses: warn",
      facts: sprayed(5, 0, 5),
      level: "warn",
    },
    { name: "dust with three addresses: warn", facts: sprayed(0, 3, 3), level: "warn" },
    { name: "twelve addresses: danger", facts: sprayed(10, 4, 12), level: "danger" },
  ])("$name", ({ facts, level }) => {
    const findings = recipientFingerprint([facts]);
    expect(findings[0]?.level ?? null).toBe(level);
  });

  it("says the pattern and the count, and an active sprayer is not ok", () => {
    const verdict = decideVerdict({ address, checksum, target: sprayed(5, 1, 6, 3) });
    expect(verdict.level).toBe("warn");
    expect(verdict.reasons[0]?.message).toContain(
      "5 zero-value and 1 dust token transfers with 6 different addresses",
    );
  });

  it("transfers to the address too many to read: a note that the fingerprint was not checked", () => {
    const facts = sprayed(0, 0, 0);
    if (facts.history?.status !== "read") throw new Error("unread");
    const unread: ChainFacts = {
      ...facts,
      history: { ...facts.history, recipient: null, recipientError: "more than 5000 transfers" },
    };
    expect(recipientFingerprint([unread])).toEqual([
      expect.objectContaining({
        code: "history_unread",
        level: "caution",
        chain: "base",
        message: expect.stringContaining(
          "The token transfers to this address on Base could not be read (more than 5000 transfers)",
        ),
      }),
    ]);
  });
});
