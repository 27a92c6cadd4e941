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

  it("calls a Safe proxy never set up a Safe anyone can take, never an unknown contract", () => {
    // It keeps a send like any contract; its setup() makes the first caller its owner.
    const address = "0x5eD176d9B3991ab1Bbc2686eB2FeBDA4Ac5640F6";
    const findings = targetFindings({
      address,
      checksum: valid,
      target: readableFacts("base", {
        kind: "contract",
        receive: "kept",
        native: "0.1",
        safeNotSetUp: { proxyVersion: "1.4.1", singleton: null },
      }),
    });
    expect(findings.map((finding) => [finding.code, finding.level])).toEqual([
      ["safe_not_set_up", "danger"],
    ]);
    expect(findings[0]?.next).toContain("Do not send");
  });

  describe("a known sweeper's own address", () => {
    // BundleBear's "Crime": the code stolen keys delegate to.
    const sweeper = "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d";
    const findings = (target: ChainFacts) =>
      targetFindings({ address: sweeper, checksum: valid, target });

    it("is a contract that steals deposits, never an exchange's deposit address", () => {
      // Its receive simulation forwards the deposit, as a deposit forwarder's does.
      const [finding, ...rest] = findings(
        readableFacts("base", {
          kind: "contract",
          receive: "forwarded",
          knownSweeper: { label: "Crime" },
        }),
      );
      expect(rest).toEqual([]);
      expect(finding).toEqual({
        code: "sweeper_contract",
        level: "danger",
        chain: "base",
        message:
          'This is a contract known to steal deposits on Base (an EIP-7702 sweeper, listed as "Crime"): it passes anything sent to it straight on to a thief, not to anyone you could be paying. It is not an exchange deposit address.',
        headline: "Contract known to steal deposits on Base",
        next: "Do not send: this contract passes what it receives to a thief; ask the recipient for their own wallet address.",
      });
    });

    it("is still a thief's address where it has no code, or where the chain was not read", () => {
      const noCode = findings(readableFacts("optimism"));
      expect(noCode.map(({ code, level }) => `${code}:${level}`)).toEqual([
        "sweeper_contract_elsewhere:danger",
      ]);
      expect(noCode[0]?.message).toContain(
        "On OP Mainnet nothing is deployed at it, and no one you could be paying holds a key for it.",
      );
      expect(noCode[0]?.next).toBe(
        "Do not send on any network: this address belongs to a contract that steals deposits.",
      );
      const unread = findings(unreadableFacts("optimism"));
      expect(unread.map((finding) => finding.code)).toEqual([
        "sweeper_contract_elsewhere",
        "chain_unavailable",
      ]);
      expect(unread[0]?.message).not.toContain("nothing is deployed");
    });

    it("leaves a forwarding contract the registry does not list a deposit forwarder", () => {
      const forwarder = readableFacts("base", { kind: "contract", receive: "forwarded" });
      expect(
        targetFindings({ address: wallet, checksum: valid, target: forwarder }).map(
          (finding) => finding.code,
        ),
      ).toEqual(["deposit_forwarder"]);
    });
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
