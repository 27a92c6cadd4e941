import { useState } from "react";
import type { Balance, ChainFacts, DeepReport, Report } from "../../../../shared/api/report";
import { approximateAmount } from "../../../../shared/verdict/approximateAmount";

function isDeep(report: Report | DeepReport): report is DeepReport {
  return "others" in report;
}

// Six significant digits keep the table readable (1.89990 ETH, not 1.899897378338550487 ETH);
// the exact amount stays in the copied report and in the cell's tooltip.
function amount(balance: Balance | null | undefined): string {
  return balance ? `${approximateAmount(balance, 6)} ${balance.symbol}` : "–";
}

function exact(balance: Balance | null | undefined): string | undefined {
  return balance ? `${balance.formatted} ${balance.symbol}` : undefined;
}

function FactsRow({ facts }: { facts: ChainFacts }) {
  if (facts.status === "unavailable") {
    return (
      <tr data-chain={facts.name}>
        <td>{facts.name}</td>
        <td colSpan={4}>could not read{facts.error ? `: ${facts.error}` : ""}</td>
      </tr>
    );
  }
  return (
    <tr data-chain={facts.name}>
      <td>{facts.name}</td>
      <td>{facts.kind ?? "–"}</td>
      <td>{facts.outgoingTxs ?? "–"}</td>
      <td title={exact(facts.native)}>{amount(facts.native)}</td>
      <td title={exact(facts.usdc)}>
        {amount(facts.usdc)}
        {facts.usdcBridged && Number(facts.usdcBridged.raw) > 0
          ? ` + ${amount(facts.usdcBridged)}`
          : ""}
      </td>
    </tr>
  );
}

/** A paid report: level, headline, next action, reasons, balances, gas; per-chain table for deep. */
export function VerdictView({ report }: { report: Report | DeepReport }) {
  const [copied, setCopied] = useState(false);
  const { verdict, chain } = report;
  const copy = async () => {
    await navigator.clipboard.writeText(report.report);
    setCopied(true);
  };
  return (
    <div className="verdict" data-level={verdict.level}>
      <div className={`alert level-${verdict.level}`}>
        <span className={`chip level-${verdict.level}`} data-testid="verdict-level">
          {verdict.level}
        </span>{" "}
        <strong data-testid="verdict-headline">{verdict.headline}</strong>
        <div data-testid="verdict-next">{verdict.next}</div>
      </div>
      {verdict.reasons.length > 0 && (
        <ul className="reasons">
          {verdict.reasons.map((reason) => (
            <li key={`${reason.code}-${reason.chain ?? ""}`} data-code={reason.code}>
              <span className={`chip level-${reason.level}`}>{reason.level}</span> {reason.message}
            </li>
          ))}
        </ul>
      )}
      {isDeep(report) && report.verdict.wrongNetwork.flagged && (
        <div className="alert level-warn" data-testid="wrong-network">
          {`Wrong network? Active on ${report.verdict.wrongNetwork.activeOn.join(", ")}, not on ${chain.name}.`}
        </div>
      )}
      {isDeep(report) &&
        report.verdict.tokenMismatch.map((flag) => (
          <div key={flag.code} className="alert level-warn" data-testid="token-mismatch">
            {flag.message}
          </div>
        ))}
      <table>
        <thead>
          <tr>
            <th>chain</th>
            <th>kind</th>
            <th>txs</th>
            <th>native</th>
            <th>USDC</th>
          </tr>
        </thead>
        <tbody>
          <FactsRow facts={chain} />
          {isDeep(report) &&
            report.others.map((facts) => <FactsRow key={facts.name} facts={facts} />)}
        </tbody>
      </table>
      <div className="muted">
        USDT on {chain.name}: {amount(chain.usdt)}. {verdict.gas.summary}
      </div>
      <div className="row">
        <button type="button" data-action="copy" onClick={copy}>
          {copied ? "Copied" : "Copy report"}
        </button>
      </div>
    </div>
  );
}
