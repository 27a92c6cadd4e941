import { describe, expect, it } from "vitest";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { crossChainFindings } from "./crossChainFindings";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const notFlagged = { flagged: false, activeOn: [] };

describe("crossChainFindings", () => {
  it("names the chain of each unreadable other chain", () => {
    const findings = crossChainFindings({
      address: wallet,
      target: readableFacts("base", { nonce: 1 }),
      others: [unreadableFacts("arbitrum", "timeout"), unreadableFacts("polygon", "HTTP 429")],
      wrongNetwork: notFlagged,
      tokenMismatch: [],
    });
    expect(findings.map(({ code, level, chain }) => [code, level, chain])).toEqual([
      ["other_chain_unavailable", "caution", "arbitrum"],
      ["other_chain_unavailable", "caution", "polygon"],
    ]);
    expect(findings[1]?.message).toBe(
      "Could not read Polygon PoS (HTTP 429): activity there cannot be ruled out.",
    );
  });

  it("turns a flagged wrong network into a warning naming where the address is active", () => {
    const findings = crossChainFindings({
      address: wallet,
      target: readableFacts("base"),
      others: [readableFacts("arbitrum", { nonce: 1 })],
      wrongNetwork: { flagged: true, activeOn: ["arbitrum"] },
      tokenMismatch: [],
    });
    expect(findings).toEqual([
      expect.objectContaining({
        code: "wrong_network",
        level: "warn",
        next: "Ask the recipient: this address is active on Arbitrum One, not Base.",
      }),
    ]);
  });

  it("leaves a listed token elsewhere to the target's own finding, unless the target is a token", () => {
    const weth = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2";
    const elsewhere = (target: ReturnType<typeof readableFacts>) =>
      crossChainFindings({
        address: weth,
        target,
        others: [readableFacts("ethereum", { kind: "token" })],
        wrongNetwork: notFlagged,
        tokenMismatch: [{ code: "token_contract", message: "token", chains: ["ethereum"] }],
      }).map((finding) => finding.code);
    expect(elsewhere(readableFacts("base"))).toEqual([]);
    expect(elsewhere(readableFacts("base", { kind: "token" }))).toEqual([
      "token_contract_elsewhere",
    ]);
  });

  it("adds no second finding for a token contract on the target itself", () => {
    const findings = crossChainFindings({
      address: wallet,
      target: readableFacts("base", { kind: "token" }),
      others: [],
      wrongNetwork: notFlagged,
      tokenMismatch: [{ code: "token_contract", message: "token", chains: ["base"] }],
    });
    expect(findings).toEqual([]);
  });

  describe("a Safe elsewhere with no code here", () => {
    const singleton = "0x3E5c63644E683549055b9Be8653de26E0B4CD36E";
    const safeOnEthereum = () => {
      const facts = readableFacts("ethereum", { kind: "safe", nonce: 4 });
      return { ...facts, safe: { owners: 3, threshold: 2, singleton } };
    };
    const findingsWith = (singletonsHere?: Record<string, boolean>) =>
      crossChainFindings({
        address: wallet,
        target: readableFacts("base"),
        others: [safeOnEthereum()],
        wrongNetwork: notFlagged,
        tokenMismatch: [],
        ...(singletonsHere && { singletonsHere }),
      });

    it("may be recoverable when the singleton it runs has code here, and says no more", () => {
      const [finding, ...rest] = findingsWith({ [singleton.toLowerCase()]: true });
      expect(rest).toEqual([]);
      expect(finding).toMatchObject({ code: "safe_elsewhere", level: "warn", chain: "ethereum" });
      // Made with the chain id in its salt, or by CREATE, it can never be re-made here: its state
      // does not say which, so "can deploy" would claim more than was read.
      expect(finding?.message).not.toContain("can deploy");
      expect(finding?.message).toContain(
        "its owners may be able to create it at this address on Base, but only if it was made in a way that gives the same address on every network, which presend cannot see from the chain.",
      );
      expect(finding?.next).toBe(
        "Ask the recipient to create their Safe on Base and check again before sending, or send on Ethereum.",
      );
    });

    it("is danger when the singleton it runs has no code here: its owners cannot make it here", () => {
      const [finding, ...rest] = findingsWith({ [singleton.toLowerCase()]: false });
      expect(rest).toEqual([]);
      expect(finding).toMatchObject({
        code: "safe_not_deployable",
        level: "danger",
        chain: "ethereum",
        headline: "Safe on Ethereum that cannot be created on Base",
      });
    });

    it("says it could not confirm when the singleton here was not read", () => {
      const [finding] = findingsWith();
      expect(finding).toMatchObject({ code: "safe_elsewhere", level: "warn" });
      expect(finding?.message).toContain(
        "which presend cannot see from the chain, and presend could not confirm that the Safe code it runs is deployed on Base.",
      );
    });

    it("is a contract elsewhere when its code is none of Safe's proxies, whatever it answers", () => {
      const lookalike = {
        ...safeOnEthereum(),
        safe: { owners: 3, threshold: 2, singleton, proxyVersion: null },
      };
      const findings = crossChainFindings({
        address: wallet,
        target: readableFacts("base"),
        others: [lookalike],
        wrongNetwork: notFlagged,
        tokenMismatch: [],
        // Its singleton is here: that makes no Safe factory able to make it here.
        singletonsHere: { [singleton.toLowerCase()]: true },
      });
      expect(findings.map(({ code, level }) => `${code}:${level}`)).toEqual([
        "contract_elsewhere:danger",
      ]);
    });

    it("names the stranded Safe as unverified when this chain could not be read", () => {
      const findings = crossChainFindings({
        address: wallet,
        target: unreadableFacts("base", "timeout"),
        others: [safeOnEthereum()],
        wrongNetwork: notFlagged,
        tokenMismatch: [],
        singletonsHere: { [singleton.toLowerCase()]: false },
      });
      expect(findings.map((finding) => finding.code)).toEqual(["contract_elsewhere_unverified"]);
    });
  });

  it("calls a registry protocol contract elsewhere neither a deposit address nor somebody's contract", () => {
    // The bridge passes a simulated deposit on, as a deposit forwarder does; the target's own
    // finding names it (protocol_contract_elsewhere).
    const bridge = "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1";
    const findings = crossChainFindings({
      address: bridge,
      target: readableFacts("base"),
      others: [readableFacts("ethereum", { kind: "contract", receive: "forwarded" })],
      wrongNetwork: notFlagged,
      tokenMismatch: [],
    });
    expect(findings.map((finding) => finding.code)).toEqual([]);
    // Any other forwarding contract elsewhere is still the wrong network for a deposit address.
    const forwarder = crossChainFindings({
      address: wallet,
      target: readableFacts("base"),
      others: [readableFacts("ethereum", { kind: "contract", receive: "forwarded" })],
      wrongNetwork: notFlagged,
      tokenMismatch: [],
    });
    expect(forwarder.map((finding) => finding.code)).toEqual(["deposit_address_elsewhere"]);
  });

  it("never sends the sender to the network of a known sweeper elsewhere", () => {
    // It forwards a simulated deposit as a deposit address does; the target's own finding names
    // it (sweeper_contract_elsewhere), never "send on Base, the network it was made for".
    const findings = crossChainFindings({
      address: "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d",
      target: readableFacts("ethereum"),
      others: [
        readableFacts("base", {
          kind: "contract",
          receive: "forwarded",
          knownSweeper: { label: "Crime" },
        }),
      ],
      wrongNetwork: notFlagged,
      tokenMismatch: [],
    });
    expect(findings.map((finding) => finding.code)).toEqual([]);
  });
});
