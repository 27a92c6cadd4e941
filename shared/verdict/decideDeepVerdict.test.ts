import { describe, expect, it } from "vitest";
import type { ChainFacts, Checksum, DeepVerdict, Level, TokenMismatch } from "../api/report";
import { type ChainName, chainNames, chains } from "../chains/chains";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { decideDeepVerdict } from "./decideDeepVerdict";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const validChecksum: Checksum = { status: "valid", message: "Address checksum is correct." };

/** The other four chains: fresh unless overridden. */
function othersOf(target: ChainName, overrides: Partial<Record<ChainName, ChainFacts>> = {}) {
  return chainNames
    .filter((name) => name !== target)
    .map((name) => overrides[name] ?? readableFacts(name));
}

type Row = {
  name: string;
  address?: string;
  target: ChainFacts;
  others: ChainFacts[];
  level: Level;
  codes: string[];
  next?: string;
  wrongNetwork?: DeepVerdict["wrongNetwork"];
  tokenMismatch?: Pick<TokenMismatch, "code" | "chains">[];
  mentions?: string;
};

const notFlagged = { flagged: false, activeOn: [] };

const rows: Row[] = [
  {
    name: "ok: active on Base, unused elsewhere",
    target: readableFacts("base", { nonce: 8, usdc: "10" }),
    others: othersOf("base"),
    level: "ok",
    codes: ["active_wallet"],
    wrongNetwork: notFlagged,
    tokenMismatch: [],
  },
  {
    name: "ok: active on Base and on Arbitrum One is not a wrong network",
    target: readableFacts("base", { nonce: 8, usdc: "10" }),
    others: othersOf("base", { arbitrum: readableFacts("arbitrum", { nonce: 3, usdc: "1" }) }),
    level: "ok",
    codes: ["active_wallet"],
    wrongNetwork: notFlagged,
  },
  {
    name: "warn: wrong network, fresh on Base but active on Arbitrum One",
    target: readableFacts("base"),
    others: othersOf("base", { arbitrum: readableFacts("arbitrum", { nonce: 4 }) }),
    level: "warn",
    codes: ["wrong_network", "fresh_address"],
    next: "Ask the recipient: this address is active on Arbitrum One, not Base.",
    wrongNetwork: { flagged: true, activeOn: ["arbitrum"] },
  },
  {
    name: "warn: wrong network by balances on two chains",
    target: readableFacts("base"),
    others: othersOf("base", {
      arbitrum: readableFacts("arbitrum", { native: "0.2" }),
      polygon: readableFacts("polygon", { native: "30" }),
    }),
    level: "warn",
    codes: ["wrong_network", "fresh_address"],
    next: "Ask the recipient: this address is active on Arbitrum One and Polygon PoS, not Base.",
    wrongNetwork: { flagged: true, activeOn: ["arbitrum", "polygon"] },
  },
  {
    name: "warn: wrong network, with the stablecoin held elsewhere",
    target: readableFacts("optimism"),
    others: othersOf("optimism", { ethereum: readableFacts("ethereum", { usdt: "500" }) }),
    level: "warn",
    codes: ["wrong_network", "stablecoin_elsewhere", "fresh_address"],
    wrongNetwork: { flagged: true, activeOn: ["ethereum"] },
    tokenMismatch: [{ code: "stablecoin_elsewhere", chains: ["ethereum"] }],
    mentions: "Holds USDT on Ethereum, but no stablecoin on OP Mainnet.",
  },
  {
    name: "warn: a delegated EOA elsewhere is the same key, so only a wrong network",
    target: readableFacts("base"),
    others: othersOf("base", {
      ethereum: readableFacts("ethereum", { kind: "eip7702-delegated", nonce: 9 }),
    }),
    level: "warn",
    codes: ["wrong_network", "fresh_address"],
  },
  {
    name: "warn: a Safe on Arbitrum One that does not exist on Base (its singleton here unread)",
    target: readableFacts("base"),
    others: othersOf("base", { arbitrum: readableFacts("arbitrum", { kind: "safe", nonce: 1 }) }),
    level: "warn",
    codes: ["safe_elsewhere", "wrong_network", "fresh_address"],
    next: "Ask the recipient to create their Safe on Base and check again before sending, or send on Arbitrum One.",
    wrongNetwork: { flagged: true, activeOn: ["arbitrum"] },
    mentions:
      "presend could not confirm that the Safe code it runs is deployed on Base. Until it exists on Base, nobody may control what is sent there",
  },
  {
    name: "warn: a Coinbase Smart Wallet elsewhere (same address on every chain)",
    target: readableFacts("base"),
    others: othersOf("base", {
      ethereum: readableFacts("ethereum", {
        kind: "smart-account",
        nonce: 2,
        kindLabel: "Coinbase Smart Wallet",
        vendor: "Coinbase Smart Wallet",
        implementation: "0x000100abaad02f1cfC8Bbe32bD5a564817339E72",
      }),
    }),
    level: "warn",
    codes: ["safe_elsewhere", "wrong_network", "fresh_address"],
    wrongNetwork: { flagged: true, activeOn: ["ethereum"] },
    mentions: "Coinbase Smart Wallet on Ethereum",
  },
  {
    name: "danger: another vendor's smart account elsewhere stays a contract elsewhere",
    target: readableFacts("base"),
    others: othersOf("base", {
      ethereum: readableFacts("ethereum", { kind: "smart-account", nonce: 2 }),
    }),
    level: "danger",
    codes: ["contract_elsewhere", "wrong_network", "fresh_address"],
    wrongNetwork: { flagged: true, activeOn: ["ethereum"] },
  },
  {
    name: "warn: a deposit forwarder on Ethereum with no code on Base is the wrong network",
    target: readableFacts("base"),
    others: othersOf("base", {
      ethereum: readableFacts("ethereum", { kind: "contract", receive: "forwarded" }),
    }),
    level: "warn",
    codes: ["wrong_network", "deposit_address_elsewhere", "fresh_address"],
    wrongNetwork: { flagged: true, activeOn: ["ethereum"] },
    mentions: "so Base is the wrong network",
  },
  {
    name: "caution: active on Base, but another chain's sub-calls failed (unknown is never ok)",
    target: readableFacts("base", { nonce: 4, native: "1" }),
    others: othersOf("base", {
      optimism: { ...readableFacts("optimism"), usdc: null, usdt: null },
    }),
    level: "caution",
    codes: ["other_chain_facts_unknown", "active_wallet"],
    wrongNetwork: notFlagged,
    mentions: "the USDC balance and the USDT balance unknown there",
  },
  {
    name: "danger: a contract on OP Mainnet with no code on Base, even with funds on Base",
    target: readableFacts("base", { nonce: 2, native: "1" }),
    others: othersOf("base", { optimism: readableFacts("optimism", { kind: "contract" }) }),
    level: "danger",
    codes: ["contract_elsewhere", "active_wallet"],
    wrongNetwork: notFlagged,
  },
  {
    name: "danger: a plain contract elsewhere outranks a Safe elsewhere",
    target: readableFacts("base"),
    others: othersOf("base", {
      optimism: readableFacts("optimism", { kind: "contract" }),
      polygon: readableFacts("polygon", { kind: "safe" }),
    }),
    level: "danger",
    codes: ["contract_elsewhere", "safe_elsewhere", "wrong_network", "fresh_address"],
  },
  {
    name: "ok: the same Safe deployed on Base and on Arbitrum One",
    target: readableFacts("base", { kind: "safe", nonce: 1 }),
    others: othersOf("base", { arbitrum: readableFacts("arbitrum", { kind: "safe", nonce: 1 }) }),
    level: "ok",
    codes: ["active_wallet"],
  },
  {
    name: "caution: active on Base but Arbitrum One could not be read",
    target: readableFacts("base", { nonce: 8 }),
    others: othersOf("base", { arbitrum: unreadableFacts("arbitrum", "timeout") }),
    level: "caution",
    codes: ["other_chain_unavailable", "active_wallet"],
    next: "Run the deep check again: Arbitrum One could not be read, so a wrong network cannot be ruled out.",
    mentions: "Could not read Arbitrum One (timeout)",
  },
  {
    name: "caution: Base could not be read, the others are unused",
    target: unreadableFacts("base"),
    others: othersOf("base"),
    level: "caution",
    codes: ["chain_unavailable"],
    wrongNetwork: notFlagged,
    tokenMismatch: [],
  },
  {
    name: "caution: every chain unreadable",
    target: unreadableFacts("base"),
    others: chainNames.filter((name) => name !== "base").map((name) => unreadableFacts(name)),
    level: "caution",
    codes: [
      "chain_unavailable",
      "other_chain_unavailable",
      "other_chain_unavailable",
      "other_chain_unavailable",
      "other_chain_unavailable",
    ],
  },
  {
    name: "warn: Base unreadable while the address is a Safe on Arbitrum One",
    target: unreadableFacts("base"),
    others: othersOf("base", { arbitrum: readableFacts("arbitrum", { kind: "safe", nonce: 1 }) }),
    level: "warn",
    codes: ["contract_elsewhere_unverified", "chain_unavailable"],
  },
  {
    name: "danger: a token contract on Polygon PoS",
    target: readableFacts("base", { nonce: 3 }),
    others: othersOf("base", { polygon: readableFacts("polygon", { kind: "token", nonce: 1 }) }),
    level: "danger",
    codes: ["token_contract_elsewhere", "active_wallet"],
    tokenMismatch: [{ code: "token_contract", chains: ["polygon"] }],
  },
  {
    name: "danger: a token contract on the target is reported once",
    target: readableFacts("base", { kind: "token", nonce: 1 }),
    others: othersOf("base"),
    level: "danger",
    codes: ["token_contract"],
    tokenMismatch: [{ code: "token_contract", chains: ["base"] }],
  },
  {
    name: "danger: the USDC contract on Base is flagged as a token contract",
    address: chains.base.usdc.address,
    target: readableFacts("base", { kind: "token", nonce: 1 }),
    others: othersOf("base"),
    level: "danger",
    codes: ["stablecoin_contract"],
    next: "Do not send: this is the USDC contract on Base.",
    tokenMismatch: [{ code: "token_contract", chains: ["base"] }],
  },
  {
    name: "danger: a stablecoin of another chain is flagged even when that chain is unreadable",
    address: chains.arbitrum.usdcBridged?.address,
    target: readableFacts("base"),
    others: othersOf("base", { arbitrum: unreadableFacts("arbitrum") }),
    level: "danger",
    codes: ["stablecoin_contract", "other_chain_unavailable"],
    tokenMismatch: [{ code: "token_contract", chains: ["arbitrum"] }],
  },
  {
    name: "caution: stablecoins only on other chains",
    target: readableFacts("base", { nonce: 5, native: "1" }),
    others: othersOf("base", {
      arbitrum: readableFacts("arbitrum", { usdc: "10", usdt: "3" }),
      polygon: readableFacts("polygon", { bridged: "7" }),
    }),
    level: "caution",
    codes: ["stablecoin_elsewhere", "active_wallet", "bridged_usdc_elsewhere"],
    tokenMismatch: [
      { code: "stablecoin_elsewhere", chains: ["arbitrum", "polygon"] },
      { code: "bridged_usdc", chains: ["polygon"] },
    ],
    mentions:
      "Holds USDC and USDT on Arbitrum One and USDC.e on Polygon PoS, but no stablecoin on Base.",
  },
  {
    name: "caution: only bridged USDC on the target",
    target: readableFacts("base", { nonce: 5, bridged: "90" }),
    others: othersOf("base"),
    level: "caution",
    codes: ["bridged_usdc_only", "active_wallet"],
    tokenMismatch: [{ code: "bridged_usdc", chains: ["base"] }],
  },
  {
    name: "ok: bridged USDC elsewhere is a note, not a concern",
    target: readableFacts("base", { nonce: 5, usdc: "90" }),
    others: othersOf("base", { optimism: readableFacts("optimism", { bridged: "1" }) }),
    level: "ok",
    codes: ["active_wallet", "bridged_usdc_elsewhere"],
    tokenMismatch: [{ code: "bridged_usdc", chains: ["optimism"] }],
  },
  {
    // The key that signed a sweeper delegation on one chain is in a thief's hands on every chain:
    // whoever holds it takes what arrives here too (and chain-agnostic authorizations replay here).
    name: "danger: an active wallet here that handed control to a known sweeper on Base",
    target: readableFacts("ethereum", { nonce: 12, usdc: "300" }),
    others: othersOf("ethereum", {
      base: readableFacts("base", {
        kind: "eip7702-delegated",
        nonce: 3,
        delegateCategory: "sweeper",
        receive: "forwarded",
      }),
    }),
    level: "danger",
    codes: ["eip7702_sweeper_elsewhere", "active_wallet"],
    next: "Do not send on any network: warn the owner that their key is likely stolen.",
    mentions: "On Base this wallet has handed control",
  },
  {
    name: "danger: a deposit forwarded by an unknown delegate on Polygon PoS counts the same",
    target: readableFacts("base", { nonce: 4 }),
    others: othersOf("base", {
      polygon: readableFacts("polygon", {
        kind: "eip7702-delegated",
        nonce: 2,
        delegateCategory: "unknown",
        receive: "forwarded",
      }),
    }),
    level: "danger",
    codes: ["eip7702_sweeper_elsewhere", "active_wallet"],
    mentions: "On Polygon PoS this wallet",
  },
  {
    // Today's deposit-forwarder rule would say "send on Base, the network this deposit address
    // was made for": the thief's network.
    name: "danger: a known sweeper's contract on Base, checked on Ethereum where it has no code",
    address: "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d",
    target: readableFacts("ethereum"),
    others: othersOf("ethereum", {
      base: readableFacts("base", {
        kind: "contract",
        receive: "forwarded",
        knownSweeper: { label: "Crime" },
      }),
    }),
    level: "danger",
    // Active on Base, as any contract is where its code is; the danger decides what to do.
    codes: ["sweeper_contract_elsewhere", "wrong_network"],
    next: "Do not send on any network: this address belongs to a contract that steals deposits.",
    mentions: "On Ethereum nothing is deployed at it",
  },
  {
    name: "danger: the known sweeper's contract checked on Base, where it is",
    address: "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d",
    target: readableFacts("base", {
      kind: "contract",
      receive: "forwarded",
      knownSweeper: { label: "Crime" },
    }),
    others: othersOf("base"),
    level: "danger",
    codes: ["sweeper_contract"],
  },
  {
    name: "ok: a known wallet delegate elsewhere says nothing against the key",
    target: readableFacts("base", { nonce: 4 }),
    others: othersOf("base", {
      optimism: readableFacts("optimism", {
        kind: "eip7702-delegated",
        nonce: 2,
        delegateCategory: "wallet",
        receive: "kept",
      }),
    }),
    level: "ok",
    codes: ["active_wallet"],
  },
];

describe("decideDeepVerdict", () => {
  it.each(rows)("$name", (row) => {
    const verdict = decideDeepVerdict({
      address: row.address ?? wallet,
      checksum: validChecksum,
      target: row.target,
      others: row.others,
    });
    expect(verdict.level).toBe(row.level);
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(row.codes);
    if (row.next) expect(verdict.next).toBe(row.next);
    if (row.wrongNetwork) expect(verdict.wrongNetwork).toEqual(row.wrongNetwork);
    if (row.tokenMismatch) {
      expect(verdict.tokenMismatch.map(({ code, chains }) => ({ code, chains }))).toEqual(
        row.tokenMismatch,
      );
    }
    if (row.mentions) {
      const mentions = row.mentions;
      expect(verdict.reasons.some((reason) => reason.message.includes(mentions))).toBe(true);
    }
  });

  it("covers every level", () => {
    expect(new Set(rows.map((row) => row.level))).toEqual(
      new Set(["ok", "caution", "warn", "danger"]),
    );
  });

  it.each(chainNames)("an unreadable other chain (%s) keeps an active wallet from ok", (name) => {
    const target: ChainName = name === "base" ? "ethereum" : "base";
    const verdict = decideDeepVerdict({
      address: wallet,
      checksum: validChecksum,
      target: readableFacts(target, { nonce: 1 }),
      others: othersOf(target, { [name]: unreadableFacts(name) }),
    });
    expect(verdict.level).toBe("caution");
    expect(verdict.reasons.find((reason) => reason.chain === name)?.message).toContain(
      chains[name].label,
    );
  });

  it("ignores an entry for the target among the others", () => {
    const target = readableFacts("base");
    const verdict = decideDeepVerdict({
      address: wallet,
      checksum: validChecksum,
      target,
      others: [readableFacts("base", { nonce: 9 }), ...othersOf("base")],
    });
    expect(verdict.wrongNetwork).toEqual(notFlagged);
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(["fresh_address"]);
  });
});
