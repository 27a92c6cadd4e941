import { formatUnits } from "viem";
import type { ChainHistory } from "../api/history";
import type {
  AddressKind,
  Balance,
  ChainFacts,
  DeepReport,
  ReceiveSimulation,
  Report,
} from "../api/report";
import { chains } from "../chains/chains";
import { approximateAmount } from "./approximateAmount";
import { chainLabels } from "./chainLabels";
import { isPositiveBalance } from "./isPositiveBalance";
import { joinNames } from "./joinNames";
import { unknownFacts } from "./unknownFacts";
import { wrapText } from "./wrapText";

/** A report before its text exists (or a full one: the text field is ignored). */
export type ReportContent = Omit<Report, "report"> | Omit<DeepReport, "report">;

// Under 100 characters so the text pastes cleanly into chats, tickets and terminals.
const width = 96;

const kindDescriptions: Record<AddressKind, string> = {
  eoa: "wallet (EOA, no code)",
  "eip7702-delegated": "wallet with EIP-7702 delegated code",
  safe: "Safe (smart contract wallet)",
  "smart-account": "smart account (contract wallet)",
  token: "token contract",
  nft: "NFT collection",
  contract: "contract of unknown type",
};

const kindShortNames: Record<AddressKind, string> = {
  eoa: "EOA",
  "eip7702-delegated": "EOA+7702",
  safe: "Safe",
  "smart-account": "account",
  token: "token",
  nft: "NFT",
  contract: "contract",
};

const labelWidth = 16;

/** What the verdict does not know; the discovery document and the README say the same. */
export const verdictLimits =
  "reads public on-chain state through public RPC endpoints; a pre-send safety check, not a " +
  "guarantee. No mempool analysis (a pending transaction can change the picture), no contract " +
  "audit (a known wallet kind is recognised, its code is not reviewed), no sanctions " +
  "screening; operator scam lists only.";

// The same on every report: wrapped once.
const limitsLines = wrapText(`Limits: ${verdictLimits}`, { width });

// A labelled value; wrapped lines of a long value line up under its first line.
function field(label: string, value: string): string[] {
  const wrapped = wrapText(value, { width: width - labelWidth });
  return (wrapped.length > 0 ? wrapped : [""]).map((line, index) =>
    `${(index === 0 ? label : "").padEnd(labelWidth)}${line}`.trimEnd(),
  );
}

function amount(balance: Balance | null | undefined): string {
  return balance ? `${balance.formatted} ${balance.symbol}` : "unknown";
}

function chainSection(facts: ChainFacts, gasSummary: string): string[] {
  const label = `${facts.name} (${chains[facts.name].label}, chain id ${facts.chainId})`;
  if (facts.status !== "ok") {
    return [
      `On ${label}`,
      ...field("  Status", `could not be read (${facts.error ?? "unknown error"})`),
      ...field("  Gas", gasSummary),
    ];
  }
  const kind = facts.kindLabel ?? (facts.kind ? kindDescriptions[facts.kind] : "unknown");
  const delegate = facts.delegate ? ` (delegate ${facts.delegate})` : "";
  const unknown = unknownFacts(facts);
  const lines = [
    `On ${label}, block ${facts.blockNumber ?? "unknown"}`,
    ...field("  Kind", `${kind}${delegate}`),
    ...field("  Outgoing txs", facts.outgoingTxs === null ? "unknown" : String(facts.outgoingTxs)),
    ...(facts.receiveSimulation
      ? field(
          "  Receive test",
          receiveText(facts.receiveSimulation, chains[facts.name].nativeSymbol),
        )
      : []),
    ...(unknown.length > 0 ? field("  Unknown", unknown.join(", ")) : []),
    ...(facts.history ? field("  History", historyText(facts.history)) : []),
    ...field("  Native", amount(facts.native)),
    ...field("  USDC", amount(facts.usdc)),
    ...field("  USDT", amount(facts.usdt)),
  ];
  if (facts.usdcBridged) lines.push(...field("  Bridged USDC", amount(facts.usdcBridged)));
  lines.push(...field("  Gas", gasSummary));
  return lines;
}

function historyText(history: ChainHistory): string {
  if (history.status === "unknown") return `not read (${history.error ?? "unknown error"})`;
  const parts = [
    `${joinNames(history.tokens)} transfers in blocks ${history.fromBlock}–${history.toBlock}`,
  ];
  if (history.recipient) {
    const count = history.recipient.transfers;
    parts.push(`${count} ${count === 1 ? "transfer" : "transfers"} of this address`);
  }
  if (history.sender) {
    const paid = history.sender.paidRecipient?.payments ?? 0;
    const count = history.sender.counterparties;
    const addresses = `${count} ${count === 1 ? "address" : "addresses"}`;
    parts.push(`the sender paid ${addresses}, this one ${paid === 1 ? "once" : `${paid} times`}`);
  }
  if (history.native.status === "read") {
    const internal = history.native.internal;
    const last = `native: the last ${history.native.transactionsRead} transactions to or from the sender`;
    parts.push(
      internal === undefined
        ? last
        : internal.status === "read"
          ? `${last}, internal calls in ${internal.transactions} of them included`
          : `${last}; its sends through internal calls in ${internal.transactions} of them not read (${internal.error ?? "unknown error"})`,
    );
  } else if (history.native.status === "unknown") {
    parts.push(`native sends not read (${history.native.error ?? "unknown error"})`);
  }
  return parts.join("; ");
}

function receiveText(simulation: ReceiveSimulation, symbol: string): string {
  const amount = `${formatUnits(BigInt(simulation.amountWei), 18)} ${symbol}`;
  switch (simulation.outcome) {
    case "kept":
      return `a simulated ${amount} deposit from a wallet was kept`;
    case "rejected":
      return `a simulated ${amount} deposit from a wallet reverted: a native send would fail`;
    case "forwarded":
      return simulation.forwardedTo
        ? `a simulated ${amount} deposit from a wallet was passed on at once to ${simulation.forwardedTo}`
        : `a simulated ${amount} deposit from a wallet was passed on elsewhere at once`;
    case "unavailable":
      return `did not run (${simulation.error ?? "the endpoint refused it"})`;
  }
}

function tableAmount(balance: Balance | null | undefined): string {
  return balance ? approximateAmount(balance, 6) : "-";
}

function deepSection(report: Omit<DeepReport, "report">): string[] {
  const { verdict, chain: target, others } = report;
  const flagsOf = (facts: ChainFacts): string => {
    const flags: string[] = [];
    if (facts.name === target.name) flags.push("target");
    if (facts.status !== "ok") flags.push("unreadable");
    if (verdict.wrongNetwork.activeOn.includes(facts.name)) flags.push("active");
    for (const mismatch of verdict.tokenMismatch) {
      if (!mismatch.chains.includes(facts.name)) continue;
      if (mismatch.code === "token_contract") flags.push("token");
      if (mismatch.code === "stablecoin_elsewhere") flags.push("stablecoin");
      if (mismatch.code === "bridged_usdc") flags.push("bridged");
    }
    return flags.join(" ");
  };
  const rows = [target, ...others].map((facts) => [
    facts.name,
    facts.kind ? kindShortNames[facts.kind] : "-",
    facts.outgoingTxs === null ? "-" : String(facts.outgoingTxs),
    facts.native ? `${tableAmount(facts.native)} ${facts.native.symbol}` : "-",
    tableAmount(facts.usdc),
    tableAmount(facts.usdt),
    isPositiveBalance(facts.usdcBridged) ? tableAmount(facts.usdcBridged) : "-",
    flagsOf(facts),
  ]);
  const header = ["chain", "kind", "txs", "native", "USDC", "USDT", "bridged"];
  const cells = [header, ...rows.map((row) => row.slice(0, header.length))];
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? "").length)),
  );
  const indent = "  ";
  const pad = (row: string[]) =>
    row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  const flagsStart = indent.length + pad(header).length + 2;
  // Flags wrap under their own column so a row with many of them stays within the width.
  const tableLines = [[...header, "flags"], ...rows].flatMap((row) => {
    const flags = wrapText(row[header.length] ?? "", { width: Math.max(20, width - flagsStart) });
    const [first = "", ...rest] = flags;
    return [
      `${indent}${pad(row.slice(0, header.length))}  ${first}`.trimEnd(),
      ...rest.map((line) => `${" ".repeat(flagsStart)}${line}`),
    ];
  });

  const wrongNetwork = verdict.wrongNetwork.flagged
    ? `flagged: active on ${chainLabels(verdict.wrongNetwork.activeOn)}, not on ${chainLabels([target.name])}`
    : "not flagged";
  const mismatches =
    verdict.tokenMismatch.length === 0
      ? ["  none"]
      : verdict.tokenMismatch.flatMap((mismatch) =>
          wrapText(`- ${mismatch.code}: ${mismatch.message}`, { width, indent: "    " }).map(
            (line) => `  ${line}`,
          ),
        );
  return [
    ...field("Wrong network", wrongNetwork),
    "Token mismatch",
    ...mismatches,
    "",
    "All chains",
    ...tableLines,
  ];
}

/**
 * The copyable plain-text report (deep: with the per-chain table), every line under 100 chars.
 * @example formatReportText(reportContent).split("\n")[0] // "presend pre-send check"
 */
export function formatReportText(report: ReportContent): string {
  const { verdict, chain: target } = report;
  const isDeep = "others" in report;
  const lines = [
    isDeep ? "presend pre-send check (deep, all five chains)" : "presend pre-send check",
    ...field("Address", report.address),
    ...(report.from ? field("Sender", report.from) : []),
    ...field("Chain", `${target.name} (${chains[target.name].label}, chain id ${target.chainId})`),
    ...field("Checksum", `${report.checksum.status}: ${report.checksum.message}`),
    ...field("Checked at", report.checkedAt),
    "",
    ...wrapText(`Verdict: ${verdict.level.toUpperCase()}: ${verdict.headline}`, {
      width,
      indent: "  ",
    }),
    ...wrapText(`Next: ${verdict.next}`, { width, indent: "  " }),
    "",
    "Reasons",
    ...verdict.reasons.flatMap((reason) =>
      wrapText(`- [${reason.level}] ${reason.message}`, { width, indent: "    " }).map(
        (line) => `  ${line}`,
      ),
    ),
    "",
    ...chainSection(target, verdict.gas.summary),
  ];
  if (isDeep) lines.push("", ...deepSection(report));
  if (report.lists) {
    const consulted = report.lists.consulted.map(
      (list) => `${list.source} (${list.date}, ${list.entries} entries, ${list.licence})`,
    );
    lines.push("", ...field("Lists", consulted.length > 0 ? consulted.join("; ") : "none"));
  }
  lines.push("", ...limitsLines);
  return lines.join("\n");
}
