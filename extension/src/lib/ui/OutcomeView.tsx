import type { ReactNode } from "react";
import type { CheckOutcome, Progress } from "../messaging/protocol";
import { formatUsdc } from "./prices";
import { RecoveryControls, type RecoveryControlsProps } from "./RecoveryControls";
import { VerdictView } from "./VerdictView";

function chargedText(charged: boolean | "unknown"): string {
  if (charged === "unknown") return "The payment was sent; whether it settled is unknown.";
  return charged ? "The payment was charged." : "Nothing was charged.";
}

/** A paid check in progress or finished, as the badge and the popup show it. */
export function OutcomeView({
  progress,
  outcome,
  recovery,
  actions,
}: {
  progress: Progress | null;
  outcome: CheckOutcome | null;
  /** "Fetch my report" for a payment whose report did not arrive (when the caller offers it). */
  recovery?: RecoveryControlsProps;
  /** The decision buttons shown under a verdict. */
  actions?: ReactNode;
}) {
  if (outcome) {
    switch (outcome.type) {
      case "report":
        return <VerdictView report={outcome.entry.report} actions={actions} />;
      case "refused":
        return (
          <div className="alert level-danger" data-state="refused" data-code={outcome.code}>
            <strong>Refused: </strong>
            {outcome.message} Nothing was charged.
          </div>
        );
      case "rejected":
        return (
          <div className="alert level-caution" data-state="rejected">
            {outcome.message} Nothing was charged.
          </div>
        );
      case "forged":
        return (
          <>
            <div className="alert level-danger" data-state="forged">
              <strong>Forged report, not shown: </strong>
              {outcome.message} {chargedText(outcome.charged)}
            </div>
            {outcome.recoveryId && recovery && <RecoveryControls {...recovery} />}
          </>
        );
      case "failed":
        return (
          <>
            <div className="alert level-warn" data-state="failed">
              <strong>{outcome.recoveryId ? "Report not received: " : "Failed: "}</strong>
              {outcome.message} {chargedText(outcome.charged)}
            </div>
            {outcome.recoveryId && recovery && <RecoveryControls {...recovery} />}
          </>
        );
    }
  }
  if (!progress) return null;
  switch (progress.step) {
    case "requesting":
      return <div data-state="requesting">Asking the server for its price…</div>;
    case "waiting-wallet":
      return (
        <div data-state="waiting-wallet">
          Pay <strong>{formatUsdc(progress.amount)} USDC</strong> on Base to{" "}
          <span className="mono">{progress.payTo}</span>
          <div className="muted">
            Payee attested by key {progress.keyFingerprint.slice(0, 16)}
            {progress.keyPinnedNow ? " (pinned now, first use)" : " (pinned)"}. Waiting for your
            wallet's signature…
          </div>
        </div>
      );
    case "paying":
      return <div data-state="paying">Signed. Paying…</div>;
    case "checking":
      return <div data-state="checking">Paid. Checking the address…</div>;
  }
}
