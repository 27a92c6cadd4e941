import type { Balance, ChainFacts, DeepReport, Level, Report } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { approximateAmount } from "@presend/shared/verdict/approximateAmount";
import { type ReactNode, useState } from "react";
import { LookalikeComparison } from "./LookalikeComparison";
import { decisionWords, kindInWords, levelWords, plainWords } from "./words";

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

type Flag = { text: string; level: string };

// The chain a finding is about (the checked chain when it names none), from either report.
function factsOn(
  report: Report | DeepReport,
  chain: ChainName | undefined,
): ChainFacts | undefined {
  if (chain === undefined || chain === report.chain.name) return report.chain;
  return isDeep(report) ? report.others.find((facts) => facts.name === chain) : undefined;
}

// The genuine address an address-poisoning finding is about: the one the sender really paid that
// the checked address imitates (most paid first).
function poisonedGenuine(report: Report | DeepReport): string | null {
  const finding = report.verdict.reasons.find((r) => r.code === "address_poisoning");
  if (!finding) return null;
  return factsOn(report, finding.chain)?.history?.sender?.lookalikes[0]?.address ?? null;
}

// Says whose payments the check read: the sender is the paying account the wallet gave.
function senderWords(report: Report | DeepReport): string | null {
  if (report.from === undefined) return null;
  const from = `${report.from.slice(0, 4)}…${report.from.slice(-2)}`;
  const name = chains[report.chain.name].label;
  const read = report.chain.history?.status === "read" && report.chain.history.sender !== null;
  return read
    ? `Checked as a payment from ${from}: your own payment history on ${name} was read.`
    : `Checked as a payment from ${from}: your own payment history on ${name} could not be read.`;
}

// The deep verdict's cross-chain flags, put on the chain rows they are about. The reasons list
// already explains them in sentences; the table only marks where.
function flagsByChain(
  report: Report | DeepReport,
  tone: (level: Level) => string,
): Map<ChainName, Flag[]> {
  const flags = new Map<ChainName, Flag[]>();
  const add = (chain: ChainName, flag: Flag) =>
    flags.set(chain, [...(flags.get(chain) ?? []), flag]);
  if (!isDeep(report)) return flags;
  const { wrongNetwork, tokenMismatch } = report.verdict;
  if (wrongNetwork.flagged) {
    add(report.chain.name, { text: "inactive here", level: "warn" });
    for (const chain of wrongNetwork.activeOn) {
      add(chain, { text: "active here", level: tone("ok") });
    }
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
          <td>{chains[facts.name].label}</td>
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
        <td>{chains[facts.name].label}</td>
        <td title={facts.kindLabel ?? undefined}>{kindInWords(facts)}</td>
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
 * A paid report, verdict first: one block in the verdict's colour with the decision as the
 * headline ("Don't send"), the deciding finding and the next step in plain words, then the
 * caller's decision buttons; the other warnings; and behind "Details" the technical part (the
 * per-chain table, findings that are fine, gas, "Copy report"). A card that is not ok shows
 * nothing in the ok colour: a fine finding beside a bad one would read as reassurance.
 */
export function VerdictView({
  report,
  actions,
  localDanger = false,
}: {
  report: Report | DeepReport;
  /** The decision buttons, right under the verdict (the badge's "Remove the address", "Done"). */
  actions?: ReactNode;
  /**
   * A danger known here that the server cannot know (a lookalike of an address from the
   * person's own history): the decision is shown as danger, as the chip does, and a milder
   * verdict's next step is left out, so "Looks fine to send" never stands beside "Don't send".
   */
  localDanger?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const { chain } = report;
  // "danger" is the worst level: nothing outranks it, so no order of levels is needed here (the
  // shared one comes with the report's schemas, too heavy for the card's chunk).
  const level = localDanger ? "danger" : report.verdict.level;
  const outranked = level !== report.verdict.level;
  const verdict = { ...report.verdict, level };
  const copy = async () => {
    await navigator.clipboard.writeText(report.report);
    setCopied(true);
  };
  const quiet = (level: Level): string =>
    verdict.level !== "ok" && level === "ok" ? "neutral" : level;
  const flags = flagsByChain(report, quiet);
  const genuine = poisonedGenuine(report);
  const sender = senderWords(report);
  // The deciding finding is the headline; the lists hold the others, each once.
  const [first, ...rest] = verdict.reasons;
  const deciding = first && first.level === verdict.level ? first : null;
  const others = deciding ? rest : verdict.reasons;
  const warnings = others.filter((r) => r.level !== "ok" || verdict.level === "ok");
  const fine = others.filter((r) => r.level === "ok" && verdict.level !== "ok");
  const headline = plainWords(verdict.headline);
  const reason = deciding ? plainWords(deciding.message) : null;
  // USDT only when there is some: "0 USDT" next to the gas read as a finding.
  const usdt = chain.usdt && Number(chain.usdt.raw) > 0 ? `USDT: ${amount(chain.usdt)}. ` : "";
  return (
    <div className="verdict" data-level={report.verdict.level}>
      <div className={`decision level-${verdict.level}`} data-testid="verdict-decision">
        <div className="decision-title">{decisionWords[verdict.level]}</div>
        <div className="verdict-head">
          <span className={`pill level-${verdict.level}`} data-testid="verdict-level">
            {levelWords[verdict.level]}
          </span>
          <span className="headline" data-testid="verdict-headline">
            {headline}
          </span>
        </div>
        {genuine && <LookalikeComparison checked={report.address} genuine={genuine} />}
        {reason && reason !== headline && (
          <div data-code={deciding?.code} data-testid="verdict-reason">
            {reason}
          </div>
        )}
        {!outranked && (
          <div>
            <strong>Next: </strong>
            <span data-testid="verdict-next">{plainWords(verdict.next)}</span>
          </div>
        )}
      </div>
      {sender && (
        <div className="muted" data-testid="verdict-sender">
          {sender}
        </div>
      )}
      {actions && <div className="row">{actions}</div>}
      {warnings.length > 0 && (
        <ul className="reasons" aria-label="Other findings">
          {warnings.map((r) => (
            <li key={`${r.code}-${r.chain ?? ""}`} data-code={r.code}>
              <span className={`pill level-${r.level}`}>{levelWords[r.level]}</span>
              <span>{plainWords(r.message)}</span>
            </li>
          ))}
        </ul>
      )}
      <details className="tech" data-testid="details">
        <summary data-action="details">Details</summary>
        {fine.length > 0 && (
          <ul className="reasons" aria-label="Findings that are fine">
            {fine.map((r) => (
              <li key={`${r.code}-${r.chain ?? ""}`} data-code={r.code}>
                <span className="pill level-neutral">Fine</span>
                <span>{plainWords(r.message)}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Chain</th>
                <th scope="col">What it is</th>
                <th scope="col">Sent</th>
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
          {usdt}
          {plainWords(verdict.gas.summary)}
        </div>
        <div className="row">
          <button type="button" data-action="copy" onClick={copy}>
            {copied ? "Copied" : "Copy report"}
          </button>
        </div>
      </details>
    </div>
  );
}
