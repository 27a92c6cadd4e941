import { describe, expect, it } from "vitest";
import type { ChainFacts, Checksum } from "../api/report";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { targetFindings } from "./targetFindings";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const valid: Checksum = { status: "valid", message: "Address checksum is correct." };

describe("targetFindings", () => {
  it.each([
    ["an active wallet", readableFacts("base", { nonce: 2 }), ["active_wallet"]],
    ["a fresh address", readableFacts("base"), ["fresh_address"]],
    ["an unreadable chain", unreadableFacts("base"), ["chain_unavailable"]],
    ["a token with no balances", readableFacts("base", { kind: "token" }), ["token_contract"]],
  ] as [string, ChainFacts, string[]][])("%s", (_, target, codes) => {
    expect(targetFindings({ address: wallet, checksum: valid, target }).map((f) => f.code)).toEqual(
      codes,
    );
  });

  it("gives every finding a headline, a next action and the chain it is about", () => {
    const findings = targetFindings({
      address: wallet,
      checksum: { status: "missing", message: "No checksum." },
      target: readableFacts("arbitrum", { kind: "eip7702-delegated", nonce: 1, bridged: "1" }),
    });
    for (const finding of findings) {
      expect(finding.headline.length).toBeGreaterThan(0);
      expect(finding.next).toMatch(/\.$/);
      if (finding.code !== "checksum_missing") expect(finding.chain).toBe("arbitrum");
    }
  });

  it("never calls a contract that only answers like a Safe an active wallet", () => {
    const safe = (proxyVersion: string | null): ChainFacts => ({
      ...readableFacts("base", { kind: "safe", nonce: 3 }),
      isContract: true,
      safe: { owners: 1, threshold: 1, proxyVersion },
    });
    const codes = (target: ChainFacts) =>
      targetFindings({ address: wallet, checksum: valid, target }).map(
        ({ code, level }) => `${code}:${level}`,
      );
    expect(codes(safe("1.4.1"))).toEqual(["active_wallet:ok"]);
    // Its nonce() is its own word: nothing shows a Safe's owners move what it receives.
    expect(codes(safe(null))).toEqual(["safe_unrecognised:caution"]);
  });
});
