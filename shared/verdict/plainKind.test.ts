import { describe, expect, it } from "vitest";
import type { AddressKind } from "../api/report";
import { readableFacts } from "./chainFacts.test-helpers";
import { plainKind } from "./plainKind";
import { targetFindings } from "./targetFindings";

const delegate = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B";

describe("plainKind", () => {
  it.each([
    ["a wallet with a key", readableFacts("base", { nonce: 3 }), "wallet"],
    [
      "a Safe",
      readableFacts("base", { kind: "safe", nonce: 1 }),
      "Safe shared wallet (1 of 2 owners sign)",
    ],
    ["a 4337 account", readableFacts("base", { kind: "smart-account" }), "smart wallet"],
    [
      "a vendor's account",
      readableFacts("base", { kind: "smart-account", vendor: "Coinbase Smart Wallet" }),
      "Coinbase Smart Wallet",
    ],
    [
      "an ERC-7579 account naming itself",
      readableFacts("base", {
        kind: "smart-account",
        vendor: "kernel.advanced.v0.3.1",
        kindLabel: "ERC-7579 smart account (kernel.advanced.v0.3.1)",
      }),
      "smart wallet (kernel.advanced.v0.3.1)",
    ],
    [
      "a wallet on known wallet code (EIP-7702)",
      readableFacts("base", {
        kind: "eip7702-delegated",
        delegateCategory: "wallet",
        vendor: "MetaMask",
      }),
      "MetaMask smart wallet",
    ],
    [
      "a wallet on unknown code (EIP-7702)",
      readableFacts("base", { kind: "eip7702-delegated", delegate, delegateCategory: "unknown" }),
      "wallet",
    ],
    [
      "a token",
      { ...readableFacts("base", { kind: "token" }), token: tokenInfo("DEMO") },
      "token contract (DEMO)",
    ],
    ["an NFT collection", readableFacts("base", { kind: "nft" }), "NFT collection"],
    [
      "a protocol contract",
      readableFacts("base", { kind: "contract", kindLabel: "Permit2 (Uniswap)" }),
      "Permit2 (Uniswap)",
    ],
  ])("%s: %s", (_, facts, words) => {
    expect(plainKind(facts)).toBe(words);
  });

  it.each<AddressKind>(["eoa", "eip7702-delegated", "safe", "smart-account", "token", "nft"])(
    "the reasons for a %s say what it is without engineers' words or the delegate's address",
    (kind) => {
      for (const receive of ["kept", "rejected", "unavailable"] as const) {
        const facts = readableFacts("base", {
          kind,
          nonce: kind === "token" || kind === "nft" ? 0 : 2,
          delegate,
          delegateCategory: kind === "eip7702-delegated" ? "unknown" : undefined,
          receive,
        });
        const findings = targetFindings({
          address: "0x1111111111111111111111111111111111111111",
          checksum: { status: "valid", message: "checksum ok" },
          target: facts,
        });
        for (const finding of findings) {
          const words = `${finding.message} ${finding.headline} ${finding.next}`;
          expect(words).not.toMatch(/\bEOA\b|EIP-7702|ERC-4337|ERC-7579|ERC-721|ERC-20\b/);
          expect(words.toLowerCase()).not.toContain(delegate.toLowerCase());
        }
      }
    },
  );
});

function tokenInfo(symbol: string) {
  return { standard: "erc20" as const, symbol, name: null, listed: false };
}
