import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { Address } from "viem";
import { browser } from "wxt/browser";
import { type ChainName, chainById } from "../../../../shared/chains/chains";
import { assessLocally } from "../../lib/address/assessLocally";
import { findAddressCandidate } from "../../lib/address/findAddressCandidate";
import { randomHex } from "../../lib/dom/randomHex";
import { lostCheckOutcome } from "../../lib/messaging/lostCheckOutcome";
import type { Messenger } from "../../lib/messaging/messenger";
import type { CheckOutcome, Progress } from "../../lib/messaging/protocol";
import { useStoredValue } from "../../lib/queries/useStoredValue";
import { walletStatusQueryOptions } from "../../lib/queries/walletStatus";
import { history, sentRecipients } from "../../lib/storage/items";
import { knownAddresses } from "../../lib/storage/knownAddresses";
import type { Route } from "../../lib/storage/schemas";
import { OutcomeView } from "../../lib/ui/OutcomeView";
import { PaidCheckControls } from "../../lib/ui/PaidCheckControls";

/** Manual lookup, paying with the active tab's wallet, and the recent results. */
export function Popup({ messenger, tabId }: { messenger: Messenger; tabId: number | null }) {
  const wallet = useQuery(walletStatusQueryOptions(messenger, tabId));
  const recent = useStoredValue(history);
  const sent = useStoredValue(sentRecipients);
  const [input, setInput] = useState("");
  const [chain, setChain] = useState<ChainName | null>(null);
  const [session, setSession] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);

  const walletChain = wallet.data?.chainId ? (chainById(wallet.data.chainId)?.name ?? null) : null;
  const selectedChain = chain ?? walletChain ?? "base";
  const candidate = findAddressCandidate(input.trim());
  const known = useMemo(
    () => knownAddresses(recent.data ?? [], sent.data ?? []),
    [recent.data, sent.data],
  );
  const assessment = candidate ? assessLocally(candidate, known) : null;

  useEffect(
    () =>
      messenger.handle({
        "check.progress": async (message) => {
          if (message.session === session) setProgress(message.progress);
          return null;
        },
      }),
    [messenger, session],
  );

  const start = (route: Route) => {
    const address = assessment?.checksum.normalized;
    if (!address || tabId === null) return;
    const id = randomHex(16);
    setSession(id);
    setOutcome(null);
    setProgress({ step: "requesting" });
    messenger
      .send("check.start", {
        session: id,
        route,
        address: address as Address,
        chain: selectedChain,
        source: { kind: "popup", tabId, frameId: 0 },
      })
      .then(setOutcome, (error: unknown) => setOutcome(lostCheckOutcome(error)))
      .finally(() => setProgress(null));
  };
  const busy = progress !== null;
  const noWallet = wallet.isSuccess && !wallet.data.available;

  return (
    <div className="presend" style={{ width: 380 }}>
      <div className="row">
        <span className="brand">presend</span>
        <button type="button" className="close" onClick={() => browser.runtime.openOptionsPage()}>
          Options
        </button>
      </div>
      <div className="muted" data-testid="wallet-status">
        {wallet.isPending
          ? "Looking for a wallet in the active tab…"
          : noWallet
            ? "No wallet in the active tab: open your dApp page to pay for checks."
            : `Wallet: ${wallet.data?.name ?? "injected"}${wallet.data?.address ? ` ${wallet.data.address}` : ""}`}
      </div>
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
      {assessment && (
        <div className="row" data-testid="local-status" data-status={assessment.status}>
          {assessment.checksum.checksum.message}
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
      />
      <OutcomeView progress={progress} outcome={outcome} />
      <h3>Recent results</h3>
      {recent.data?.length ? (
        <ul className="reasons" data-testid="history">
          {recent.data.map((entry) => (
            <li key={entry.id} data-level={entry.level}>
              <span className={`chip level-${entry.level}`}>{entry.level}</span>{" "}
              <span className="mono">{entry.address}</span> on {entry.chain} ({entry.route}):{" "}
              {entry.headline}
            </li>
          ))}
        </ul>
      ) : (
        <div className="muted" data-testid="history-empty">
          No checks yet.
        </div>
      )}
    </div>
  );
}
