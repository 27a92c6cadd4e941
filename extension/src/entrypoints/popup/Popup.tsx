import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { findLookalike } from "@presend/shared/address/lookalike";
import { visibleEnds } from "@presend/shared/address/visibleEnds";
import { type ChainName, chainById, chains } from "@presend/shared/chains/chains";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Address } from "viem";
import { browser } from "wxt/browser";
import {
  assessLocally,
  checksumLabels,
  specialAddressWarning,
} from "../../lib/address/assessLocally";
import { findAddressCandidate } from "../../lib/address/findAddressCandidate";
import { randomHex } from "../../lib/dom/randomHex";
import { lostCheckOutcome } from "../../lib/messaging/lostCheckOutcome";
import type { Messenger } from "../../lib/messaging/messenger";
import type { CheckOutcome, Progress } from "../../lib/messaging/protocol";
import { useStoredValue } from "../../lib/queries/useStoredValue";
import { walletStatusQueryOptions } from "../../lib/queries/walletStatus";
import { freshVerdict } from "../../lib/storage/freshVerdict";
import { history, pendingRecoveries, sentRecipients } from "../../lib/storage/items";
import { knownAddresses } from "../../lib/storage/knownAddresses";
import type { Route } from "../../lib/storage/schemas";
import { ageInWords } from "../../lib/ui/ageInWords";
import { CopyableValue } from "../../lib/ui/CopyableValue";
import { isPaidFor } from "../../lib/ui/isPaidFor";
import { OutcomeView } from "../../lib/ui/OutcomeView";
import { PaidCheckControls } from "../../lib/ui/PaidCheckControls";
import { VerdictView } from "../../lib/ui/VerdictView";
import { levelWords } from "../../lib/ui/words";
import { ChannelControls } from "./ChannelControls";
import { PendingRecoveryItem } from "./PendingRecoveryItem";

/** One paid check the popup started: what it was for, how it is going, how it ended. */
type Run = {
  session: string;
  address: Address;
  chain: ChainName;
  progress: Progress | null;
  outcome: CheckOutcome | null;
};

/** Manual lookup, paying with the active tab's wallet, and the recent results. */
export function Popup({ messenger, tabId }: { messenger: Messenger; tabId: number | null }) {
  const wallet = useQuery(walletStatusQueryOptions(messenger, tabId));
  const recent = useStoredValue(history);
  const sent = useStoredValue(sentRecipients);
  const waiting = useStoredValue(pendingRecoveries);
  const [input, setInput] = useState("");
  const [chain, setChain] = useState<ChainName | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const resultRegion = useRef<HTMLDivElement>(null);

  const walletChain = wallet.data?.chainId ? (chainById(wallet.data.chainId)?.name ?? null) : null;
  const selectedChain = chain ?? walletChain ?? "base";
  const typed = input.trim();
  const candidate = findAddressCandidate(typed);
  // Text with no address in it (a name, a short hex) is said to be no address, rather than left
  // without an answer.
  const notAnAddress = typed !== "" && candidate === null;
  const known = useMemo(
    () => knownAddresses(recent.data ?? [], sent.data ?? []),
    [recent.data, sent.data],
  );
  const assessment = candidate ? assessLocally(candidate, known) : null;
  const address = assessment?.checksum.normalized ?? null;
  // A danger found here (a lookalike of the person's own history) is one the report cannot
  // know: a verdict for the address is shown as danger, never green beside it.
  const localDanger = assessment?.level === "danger";
  // A result is shown only under the address and chain it is for, never under another.
  const runShown = run && run.address === address && run.chain === selectedChain ? run : null;
  const busy = run !== null && run.outcome === null;
  // A verdict for this address and chain paid within the freshness window is shown again.
  const fresh =
    address !== null && !runShown
      ? freshVerdict(recent.data ?? [], address, selectedChain, Date.now())
      : null;
  // A verdict for this address and chain is already in Recent results: checking again pays again.
  const checkedBefore =
    address !== null &&
    (recent.data ?? []).some((e) => e.address === address && e.chain === selectedChain);

  useEffect(
    () =>
      messenger.handle({
        "check.progress": async (message) => {
          setRun((current) =>
            current?.session === message.session
              ? { ...current, progress: message.progress }
              : current,
          );
          return null;
        },
      }),
    [messenger],
  );

  const start = (route: Route) => {
    if (!address || tabId === null) return;
    const session = randomHex(16);
    const click = { address, chain: selectedChain, at: Date.now() };
    // The clicked button is disabled while the check runs: the focus moves to where its result
    // appears, not to the page's top, so the keyboard goes on from there.
    resultRegion.current?.focus();
    const finish = (outcome: CheckOutcome) =>
      setRun((current) =>
        current?.session === session ? { ...current, outcome, progress: null } : current,
      );
    setRun({
      session,
      address,
      chain: selectedChain,
      progress: { step: "requesting" },
      outcome: null,
    });
    messenger
      .send("check.start", {
        session,
        route,
        address,
        chain: selectedChain,
        source: { kind: "popup", tabId, frameId: 0 },
      })
      .then(finish, async (error: unknown) => {
        // The background stopped or never answered (the card does the same): what it wrote
        // for this click says whether a payment left, and which report to fetch.
        const [recoveries, filed] = await Promise.all([
          pendingRecoveries.getValue(),
          history.getValue(),
        ]);
        finish(lostCheckOutcome(error, { recoveries, history: filed }, click));
      });
  };
  const noWallet = wallet.isSuccess && !wallet.data.available;

  return (
    <div className="presend popup">
      <div className="row">
        {/* The popup's one top-level heading: screen-reader users move through it by headings. */}
        <h1 className="brand page-title">presend</h1>
        <button
          type="button"
          className="icon-button"
          style={{ marginLeft: "auto", fontSize: 13 }}
          onClick={() => browser.runtime.openOptionsPage()}
        >
          Options
        </button>
      </div>
      <div className="muted" data-testid="wallet-status" title={wallet.data?.address ?? undefined}>
        {wallet.isPending ? (
          "Looking for a wallet in the active tab…"
        ) : noWallet ? (
          "No wallet in the active tab: open your dApp page to pay for checks."
        ) : (
          // The name is the page's (EIP-6963), in any script: isolated, a right-to-left one
          // cannot pull the address's leading 0 over to its other side.
          <>
            Wallet: <bdi>{wallet.data?.name ?? "injected"}</bdi>
            {wallet.data?.address && (
              <>
                {" "}
                <bdi dir="ltr" data-testid="wallet-address">
                  {visibleEnds(wallet.data.address)}
                </bdi>
              </>
            )}
          </>
        )}
      </div>
      <ChannelControls messenger={messenger} tabId={tabId} />
      <div className="row">
        <input
          aria-label="Address"
          placeholder="0x… address to check"
          className="mono"
          style={{ flex: 1 }}
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
      </div>
      {assessment && !fresh && (
        <div className="row" data-testid="local-status" data-status={assessment.status}>
          <span className={`pill level-${assessment.level}`}>{assessment.label}</span>
          <span className="muted">{assessment.checksum.checksum.message}</span>
        </div>
      )}
      {notAnAddress && (
        <div className="row" data-testid="local-status" data-status="malformed">
          <span className={`pill level-${checksumLabels.malformed.level}`}>
            {checksumLabels.malformed.label}
          </span>
          <span className="muted">{checksumStatus(typed).checksum.message}</span>
        </div>
      )}
      {assessment?.special && (
        <div className="alert level-danger" data-testid="special">
          <strong>Danger: </strong>
          {specialAddressWarning(assessment.special)}
        </div>
      )}
      {assessment?.lookalikeOf && (
        <div className="alert level-danger" data-testid="lookalike">
          <strong>Danger: lookalike</strong> of {assessment.lookalikeOf}, which you used before.
        </div>
      )}
      <PaidCheckControls
        chain={selectedChain}
        onChainChange={setChain}
        onCheck={start}
        busy={busy}
        disabled={!assessment?.payable || noWallet}
        quiet={assessment?.level === "danger"}
        paidFor={(runShown !== null && isPaidFor(runShown.outcome)) || checkedBefore}
      />
      {/* The result, read to screen readers as it changes (progress, then the verdict). */}
      <div
        role="status"
        className="result-region"
        tabIndex={-1}
        ref={resultRegion}
        data-testid="result-region"
      >
        {runShown ? (
          <div data-testid="result" data-address={runShown.address} data-chain={runShown.chain}>
            <OutcomeView
              progress={runShown.progress}
              outcome={runShown.outcome}
              localDanger={localDanger}
            />
          </div>
        ) : fresh ? (
          <div data-testid="result" data-address={fresh.address} data-chain={fresh.chain}>
            <div className="muted" data-testid="verdict-age">
              {`Checked on ${chains[fresh.chain].label} ${ageInWords(fresh.checkedAt, Date.now())}`}
            </div>
            <VerdictView report={fresh.report} localDanger={localDanger} />
          </div>
        ) : (
          busy &&
          run && (
            <div className="muted" data-testid="other-run">
              Still checking {run.address} on {chains[run.chain].label}; its result goes to Recent
              results.
            </div>
          )
        )}
      </div>
      {waiting.data && waiting.data.length > 0 && (
        <>
          <h2>Waiting for their report</h2>
          <ul className="reasons history" data-testid="recoveries">
            {waiting.data.map((recovery) => (
              <li key={recovery.id}>
                <PendingRecoveryItem recovery={recovery} messenger={messenger} tabId={tabId} />
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Recent results</h2>
      {recent.data?.length ? (
        <ul className="reasons history" data-testid="history">
          {recent.data.map((entry) => {
            // Two results whose ends match are how address poisoning works: whichever one is the
            // lookalike, neither is listed green for someone to copy from.
            const twin = findLookalike(entry.address, known);
            const level = twin ? "danger" : entry.level;
            return (
              <li key={entry.id} data-level={level}>
                {/* A native disclosure: keyboard and screen readers get it for free. */}
                <details data-testid="history-entry">
                  <summary>
                    <span className={`pill level-${level}`}>{levelWords[level]}</span>{" "}
                    <span className="mono" title={entry.address}>
                      {visibleEnds(entry.address)}
                    </span>{" "}
                    on {chains[entry.chain].label}
                    {entry.route === "deep" ? " (deep check)" : ""}:{" "}
                    {twin ? "looks like another address you used" : entry.headline}
                  </summary>
                  {twin && (
                    <div className="alert level-danger" data-testid="history-lookalike">
                      <strong>Danger: lookalike.</strong> Its first and last characters match {twin}
                      , another address in your results. Copy an address only from a trusted source.
                    </div>
                  )}
                  <CopyableValue value={entry.address} label="address" />
                  <VerdictView report={entry.report} localDanger={twin !== null} />
                </details>
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="muted" data-testid="history-empty">
          No checks yet.
        </div>
      )}
    </div>
  );
}
