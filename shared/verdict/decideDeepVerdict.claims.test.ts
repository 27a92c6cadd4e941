import { describe, expect, it } from "vitest";
import type { ChainFacts, Reason } from "../api/report";
import { type ChainName, chainNames } from "../chains/chains";
import { readableFacts } from "./chainFacts.test-helpers";
import { decideDeepVerdict } from "./decideDeepVerdict";

// Every message is checked against the facts it rests on: a balance named as absent was read and
// is zero, a balance named as held was read and is above zero, a count is the count read, a
// collector is the one traced, a revert is the one simulated. Words that claim more than was
// read ("no balances", "never been used") fail here.

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const checksum = { status: "valid", message: "Address checksum is correct." } as const;

type Row = { name: string; target: ChainFacts; others?: Partial<Record<ChainName, ChainFacts>> };

const rows: Row[] = [
  { name: "a fresh EOA on Base", target: readableFacts("base") },
  { name: "a fresh EOA on Ethereum (no bridged USDC there)", target: readableFacts("ethereum") },
  // Only the native coin and the stablecoins are read: other tokens cannot be claimed absent.
  { name: "an EOA with only spam tokens (none read)", target: readableFacts("optimism") },
  {
    name: "receive-only with ETH and USDC",
    target: readableFacts("base", { native: "1", usdc: "2" }),
  },
  { name: "receive-only with bridged USDC", target: readableFacts("arbitrum", { bridged: "3" }) },
  { name: "an active EOA", target: readableFacts("base", { nonce: 7, native: "1" }) },
  { name: "an active Safe", target: readableFacts("polygon", { kind: "safe", nonce: 1 }) },
  { name: "an unused smart account", target: readableFacts("base", { kind: "smart-account" }) },
  {
    name: "a forwarder with a traced collector",
    target: readableFacts("base", {
      kind: "contract",
      receive: "forwarded",
      forwardedTo: "0x00000000000000000000000000000000C0FFEE00",
    }),
  },
  {
    name: "a contract that rejects",
    target: readableFacts("base", { kind: "contract", receive: "rejected" }),
  },
  {
    name: "fresh here, active on Arbitrum One",
    target: readableFacts("base"),
    others: { arbitrum: readableFacts("arbitrum", { nonce: 2, usdc: "9" }) },
  },
  {
    name: "fresh here, a forwarder on Ethereum",
    target: readableFacts("base"),
    others: { ethereum: readableFacts("ethereum", { kind: "contract", receive: "forwarded" }) },
  },
];

const listed = (text: string) => text.split(/, | or | and /).map((name) => name.trim());

function checkClaims(reason: Reason, facts: ChainFacts) {
  const balances = [facts.native, facts.usdc, facts.usdt, facts.usdcBridged].filter(
    (balance) => balance !== null && balance !== undefined,
  );
  const bySymbol = new Map(balances.map((balance) => [balance.symbol, BigInt(balance.raw)]));
  expect(reason.message).not.toMatch(/no balances|never been used/);

  const absent = reason.message.match(/\bno ((?:[A-Za-z.]+(?:, | or ))*[A-Za-z.]+) balance on/);
  if (absent?.[1]) {
    const named = listed(absent[1]);
    // Exactly the balances read on that chain, each of them zero.
    expect(named.sort()).toEqual([...bySymbol.keys()].sort());
    for (const symbol of named) expect(bySymbol.get(symbol), symbol).toBe(0n);
  }
  const held = reason.message.match(/^Holds ([A-Za-z.,\s]+?) on /);
  if (held?.[1]) {
    for (const symbol of listed(held[1]))
      expect(bySymbol.get(symbol) ?? 0n, symbol).toBeGreaterThan(0n);
  }
  const count = reason.message.match(/(\d+) outgoing transactions? of its own/);
  if (count?.[1]) expect(Number(count[1])).toBe(facts.outgoingTxs);
  if (reason.message.includes("0 transactions of its own")) expect(facts.outgoingTxs).toBe(0);
  const collector = reason.message.match(/one collector \((0x[0-9a-fA-F]{40})\)/);
  if (collector?.[1]) expect(collector[1]).toBe(facts.receiveSimulation?.forwardedTo);
  if (/would revert/.test(reason.message)) {
    expect(facts.receiveSimulation?.outcome).toBe("rejected");
  }
}

describe("decideDeepVerdict: every message claims only what was read", () => {
  it.each(rows)("$name", ({ target, others = {} }) => {
    const all = chainNames
      .filter((name) => name !== target.name)
      .map((name) => others[name] ?? readableFacts(name));
    const verdict = decideDeepVerdict({ address: wallet, checksum, target, others: all });
    expect(verdict.reasons.length).toBeGreaterThan(0);
    for (const reason of verdict.reasons) {
      const chain = reason.chain ?? target.name;
      const facts = chain === target.name ? target : all.find((f) => f.name === chain);
      if (!facts) throw new Error(`no facts for ${chain}`);
      checkClaims(reason, facts);
    }
  });

  it("says which balances were read, not that there are none", () => {
    const verdict = decideDeepVerdict({
      address: wallet,
      checksum,
      target: readableFacts("optimism"),
      others: chainNames.filter((n) => n !== "optimism").map((n) => readableFacts(n)),
    });
    expect(verdict.reasons[0]?.message).toBe(
      "No outgoing transactions and no ETH, USDC, USDT or USDC.e balance on OP Mainnet: nothing read here shows this address in use (other tokens are not read).",
    );
  });
});
