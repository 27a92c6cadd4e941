import { describe, expect, it } from "vitest";
import type { ChainFacts, Checksum } from "../api/report";
import { buildDeepReport } from "./buildDeepReport";
import { buildReport } from "./buildReport";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";
import { formatReportText } from "./formatReportText";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const checkedAt = "2025-06-01T12:00:00.000Z";
const missing: Checksum = {
  status: "missing",
  message: "No checksum (all one case): a typo in this address cannot be detected.",
};
const longError = `all endpoints failed: ${"https://rpc.example.org/v1/abcdef ".repeat(6)}`;

const targets: [string, ChainFacts][] = [
  ["a fresh address", readableFacts("base")],
  [
    "a rich delegated account",
    readableFacts("polygon", {
      kind: "eip7702-delegated",
      delegate: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B",
      nonce: 123456,
      native: "123456789012.123456789012345678",
      usdc: "98765432109.123456",
      usdt: "0.000001",
      bridged: "5",
      gasPriceWei: 987_654_321_987n,
    }),
  ],
  ["an unreadable chain with a long error", unreadableFacts("arbitrum", longError)],
];

const deepOthers = [
  readableFacts("ethereum", {
    kind: "eip7702-delegated",
    nonce: 99999,
    native: "123456789.123456",
  }),
  readableFacts("arbitrum", { kind: "contract", usdc: "1234567890.5", usdt: "1234567890.5" }),
  unreadableFacts("optimism", longError),
  readableFacts("polygon", { kind: "token", bridged: "1234567890.123456" }),
];

describe("formatReportText", () => {
  it.each(targets)("keeps every line of %s under 100 characters, plain text", (_, target) => {
    const single = buildReport({ address: wallet, checksum: missing, target, checkedAt }).report;
    const deep = buildDeepReport({
      address: wallet,
      checksum: missing,
      target,
      others: deepOthers.filter((facts) => facts.name !== target.name),
      checkedAt,
    }).report;
    for (const text of [single, deep]) {
      for (const line of text.split("\n")) expect(line.length).toBeLessThan(100);
      // Plain, copyable text: no escape sequences, no tabs, no trailing spaces.
      expect(text.includes("\u001b")).toBe(false);
      expect(text).not.toMatch(/\t| $/m);
    }
  });

  it("states the verdict level, the next action and the facts of the target", () => {
    const target = readableFacts("base", { nonce: 3, native: "1.25", usdc: "100" });
    const { report: _text, ...content } = buildReport({
      address: wallet,
      checksum: missing,
      target,
      checkedAt,
    });
    const text = formatReportText(content);
    expect(text).toContain("Verdict: CAUTION: No checksum: typos cannot be detected");
    expect(text).toContain(
      "Next: Compare every character with the address the recipient gave you.",
    );
    expect(text).toMatch(/^Address {9}0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045$/m);
    expect(text).toMatch(/^ {2}Outgoing txs {2}3$/m);
    expect(text).toMatch(/^ {2}Native {8}1\.25 ETH$/m);
    expect(text).toMatch(/^ {2}USDC {10}100 USDC$/m);
    expect(text).toMatch(/^ {2}Bridged USDC {2}0 USDbC$/m);
    expect(text).toContain(
      "Sending ETH costs about 0.000031 ETH on Base including the L1 data fee",
    );
    expect(text).not.toContain("All chains");
  });

  it("says why a chain is unknown", () => {
    const target = unreadableFacts("base", "HTTP 503");
    const text = buildReport({ address: wallet, checksum: missing, target, checkedAt }).report;
    expect(text).toMatch(/^ {2}Status {8}could not be read \(HTTP 503\)$/m);
    expect(text).toContain("Gas cost on Base is unknown");
  });

  it("flags each chain of a deep report", () => {
    const text = buildDeepReport({
      address: wallet,
      checksum: missing,
      target: readableFacts("base"),
      others: deepOthers,
      checkedAt,
    }).report;
    expect(text).toContain(
      "Wrong network   flagged: active on Ethereum, Arbitrum One and Polygon PoS, not on Base",
    );
    expect(text).toMatch(/^ {2}base +EOA +0 +0 ETH +0 +0 +- +target$/m);
    expect(text).toMatch(/^ {2}arbitrum +contract .* active stablecoin$/m);
    expect(text).toMatch(/^ {2}optimism +- +- +- +- +- +- +unreadable$/m);
    // Flags that do not fit wrap onto the next line, under the flags column.
    expect(text).toMatch(/^ {2}polygon +token .* active token\s+stablecoin bridged$/m);
    expect(text).toMatch(/^ {2}- token_contract: This address is a token contract on Polygon PoS/m);
  });

  it("names where a simulated deposit from a wallet went", () => {
    const collector = "0x00000000000000000000000000000000C0FFEE00";
    const text = buildReport({
      address: wallet,
      checksum: missing,
      target: readableFacts("base", {
        kind: "contract",
        receive: "forwarded",
        forwardedTo: collector,
      }),
      checkedAt,
    }).report;
    // Long lines wrap: compare with the line breaks and indentation folded away.
    expect(text.replace(/\s+/g, " ")).toContain(
      `a simulated 0.000001 ETH deposit from a wallet was passed on at once to ${collector}`,
    );
  });
});

describe("formatReportText: sender and history", () => {
  it("names the sender, what history was read and the lists consulted", async () => {
    const { buildReport } = await import("./buildReport");
    const { readableFacts } = await import("./chainFacts.test-helpers");
    const report = buildReport({
      address: "0xAbcd999999999999999999999999999999991234",
      from: "0x1111111111111111111111111111111111111111",
      checksum: { status: "valid", message: "Address checksum is correct." },
      checkedAt: "2026-11-24T00:00:00.000Z",
      lists: {
        consulted: [{ source: "demo", licence: "CC0-1.0", date: "2026-11-24", entries: 2 }],
        matches: [],
      },
      target: {
        ...readableFacts("base", { nonce: 1 }),
        history: {
          status: "read",
          tokens: ["USDC", "USDT"],
          fromBlock: "0",
          toBlock: "66",
          native: { status: "unknown", error: "the endpoint has no Otterscan ots_ methods" },
          sender: {
            address: "0x1111111111111111111111111111111111111111",
            counterparties: 1,
            paidRecipient: null,
            lookalikes: [],
            zeroValueToRecipient: 0,
          },
          recipient: {
            transfers: 1,
            zeroValueTransfers: 0,
            dustTransfers: 0,
            zeroOrDustCounterparties: 0,
            sentTo: [],
          },
        },
      },
    });
    expect(report.report).toContain("Sender          0x1111111111111111111111111111111111111111");
    // Wrapped lines joined: the history field spans several.
    const joined = report.report.replace(/\n\s+/g, " ");
    expect(joined).toContain("USDC and USDT transfers in blocks 0–66; 1 transfer of this address;");
    expect(joined).toContain("the sender paid 1 address, this one 0 times; native sends not read");
    expect(report.report).toContain("Lists           demo (2026-11-24, 2 entries, CC0-1.0)");
    for (const line of report.report.split("\n")) expect(line.length).toBeLessThan(100);
  });
});

describe("formatReportText: a smart account's internal sends", () => {
  const withInternal = (internal: {
    status: "read" | "unknown";
    transactions: number;
    error?: string;
  }) =>
    buildReport({
      address: "0xAbcd999999999999999999999999999999991234",
      from: "0x1111111111111111111111111111111111111111",
      checksum: { status: "valid", message: "Address checksum is correct." },
      checkedAt,
      target: {
        ...readableFacts("base", { nonce: 1 }),
        history: {
          status: "read",
          tokens: ["USDC"],
          fromBlock: "0",
          toBlock: "66",
          native: { status: "read", transactionsRead: 4, internal },
          sender: null,
          recipient: null,
        },
      },
    }).report.replace(/\n\s+/g, " ");

  it("says the internal calls were read, or that they were not and why", () => {
    expect(withInternal({ status: "read", transactions: 3 })).toContain(
      "native: the last 4 transactions to or from the sender, internal calls in 3 of them included",
    );
    expect(
      withInternal({ status: "unknown", transactions: 3, error: "no ots_getInternalOperations" }),
    ).toContain(
      "native: the last 4 transactions to or from the sender; its sends through internal calls in 3 of them not read (no ots_getInternalOperations)",
    );
  });
});
