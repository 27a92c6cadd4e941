import type { Balance, ChainFacts, DeepReport, Report } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { approximateAmount } from "@presend/shared/verdict/approximateAmount";
import { useState } from "react";
import { kindInWords, levelWords } from "./words";

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

type Flag = { text: string; level: "warn" | "danger" | "caution" | "ok" };

// The deep verdict's cross-chain flags, put on the chain rows they are about. The reasons list
// already explains them in sentences; the table only marks where.
function flagsByChain(report: Report | DeepReport): Map<ChainName, Flag[]> {
  const flags = new Map<ChainName, Flag[]>();
  const add = (chain: ChainName, flag: Flag) =>
    flags.set(chain, [...(flags.get(chain) ?? []), flag]);
  if (!isDeep(report)) return flags;
  const { wrongNetwork, tokenMismatch } = report.verdict;
  if (wrongNetwork.flagged) {
    add(report.chain.name, { text: "inactive here", level: "warn" });
    for (const chain of wrongNetwork.activeOn) add(chain, { text: "active here", level: "ok" });
  }
  for (const mismatch of tokenMismatch) {
    const text = {
      token_contract: "token contract",
      stablecoin_elsewhere: "holds stablecoins",
      bridged_usdc: "bridged USDC",
    }[mismatch.code];
    const level = mismatch.code === "token_contract" ? "danger" : "caution";
    for (const chain of mismatch.chains) add(chain, { text, level });
  }
  return flags;
}

function FactsRow({ facts, target, flags }: { facts: ChainFacts; target: boolean; flags: Flag[] }) {
  const flagList = flags.map((flag) => (
    <span key={flag.text} className={`flag level-${flag.level}`}>
      {flag.text}
    </span>
  ));
  const flagCell = (
    <td className="flags-cell" data-testid="flags">
      {flagList}
    </td>
  );
  const className = [target ? "target" : "", flags.length > 0 ? "flagged" : ""].join(" ").trim();
  // On a narrow card the flags leave their column for a line of their own under the row (the
  // stylesheet shows one or the other), so no column is squeezed to a few pixels.
  const flagLine = flags.length > 0 && (
    <tr className="flags-line" data-flags-for={facts.name}>
      <td colSpan={5}>{flagList}</td>
    </tr>
  );
  if (facts.status === "unavailable") {
    return (
      <>
        <tr data-chain={facts.name} className={className || undefined}>
          <td>{facts.name}</td>
          <td colSpan={4}>could not read{facts.error ? `: ${facts.error}` : ""}</td>
          {flagCell}
        </tr>
        {flagLine}
      </>
    );
  }
  return (
    <>
      <tr data-chain={facts.name} className={className || undefined}>
        <td>{facts.name}</td>
        <td>{kindInWords(facts)}</td>
        <td>{facts.outgoingTxs ?? "–"}</td>
        <td title={exact(facts.native)}>{amount(facts.native)}</td>
        <td title={exact(facts.usdc)}>
          {amount(facts.usdc)}
          {facts.usdcBridged && Number(facts.usdcBridged.raw) > 0
            ? ` + ${amount(facts.usdcBridged)}`
            : ""}
        </td>
        {flagCell}
      </tr>
      {flagLine}
    </>
  );
}

/**
 * A paid report: level and headline with the next step, "Copy report" as the action, each
 * finding once, then the per-chain table (deep: all five chains, the target marked, flags on
 * the rows they concern) and the cost of sending.
 */
export function VerdictView({ report }: { report: Report | DeepReport }) {
  const [copied, setCopied] = useState(false);
  const { verdict, chain } = report;
  const copy = async () => {
    await navigator.clipboard.writeText(report.report);
    setCopied(true);
  };
  const flags = flagsByChain(report);
  // The deciding finding is the headline; the list holds the others, each once.
  const [first, ...rest] = verdict.reasons;
  const others = first && first.level === verdict.level ? rest : verdict.reasons;
  return (
    <div className="verdict" data-level={verdict.level}>
      <div className={`alert level-${verdict.level}`}>
        <div className="verdict-head">
          <span className={`pill level-${verdict.level}`} data-testid="verdict-level">
            {levelWords[verdict.level]}
          </span>
          <span className="headline" data-testid="verdict-headline">
            {verdict.headline}
          </span>
        </div>
        {first && first.level === verdict.level && (
          <div data-code={first.code} data-testid="verdict-reason">
            {first.message}
          </div>
        )}
        <div>
          <strong>Next: </strong>
          <span data-testid="verdict-next">{verdict.next}</span>
        </div>
      </div>
      <div className="row">
        <button type="button" className="primary" data-action="copy" onClick={copy}>
          {copied ? "Copied" : "Copy report"}
        </button>
      </div>
      {others.length > 0 && (
        <ul className="reasons" aria-label="Other findings">
          {others.map((reason) => (
            <li key={`${reason.code}-${reason.chain ?? ""}`} data-code={reason.code}>
              <span className={`pill level-${reason.level}`}>{levelWords[reason.level]}</span>
              <span>{reason.message}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Chain</th>
              <th scope="col">Kind</th>
              <th scope="col">Txs</th>
              <th scope="col">Native</th>
              <th scope="col">USDC</th>
              <th scope="col" className="flags-cell">
                Flags
              </th>
            </tr>
          </thead>
          <tbody>
            <FactsRow facts={chain} target flags={flags.get(chain.name) ?? []} />
            {isDeep(report) &&
              report.others.map((facts) => (
                <FactsRow
                  key={facts.name}
                  facts={facts}
                  target={false}
                  flags={flags.get(facts.name) ?? []}
                />
              ))}
          </tbody>
        </table>
      </div>
      <div className="muted" data-testid="verdict-gas">
        USDT on {chain.name}: {amount(chain.usdt)}. {verdict.gas.summary}
      </div>
    </div>
  );
}
