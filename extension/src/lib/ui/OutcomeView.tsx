import { visibleEnds } from "@presend/shared/address/visibleEnds";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { ReactNode } from "react";
import type { CheckOutcome, Progress } from "../messaging/protocol";
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
  onCancel,
  onOpenSettings,
  localDanger,
}: {
  progress: Progress | null;
  outcome: CheckOutcome | null;
  /** "Fetch my report" for a payment whose report did not arrive (when the caller offers it). */
  recovery?: RecoveryControlsProps;
  /** The decision buttons shown under a verdict. */
  actions?: ReactNode;
  /** Stops waiting for the wallet (the badge; nothing was signed yet, so nothing is charged). */
  onCancel?: () => void;
  /** Opens the settings, offered under an error the settings can fix (the badge). */
  onOpenSettings?: () => void;
  /** A danger found here that the report cannot know: the verdict is shown as danger (VerdictView). */
  localDanger?: boolean;
}) {
  const settings = onOpenSettings && (
    <div className="row">
      <button type="button" data-action="settings" onClick={onOpenSettings}>
        Open settings
      </button>
    </div>
  );
  if (outcome) {
    switch (outcome.type) {
      case "report":
        return (
          <VerdictView report={outcome.entry.report} actions={actions} localDanger={localDanger} />
        );
      case "refused":
        return (
          <>
            <div className="alert level-danger" data-state="refused" data-code={outcome.code}>
              <strong>Refused: </strong>
              {outcome.message} Nothing was charged.
            </div>
            {outcome.code !== "no_wallet" && outcome.code !== "invalid_address" && settings}
          </>
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
            {/* Once "Fetch my report" proved nothing was charged, "whether it settled is unknown"
                is no longer true: the recovery's answer stands alone. */}
            {!(outcome.recoveryId && provenNotCharged(recovery)) && (
              <div className="alert level-warn" data-state="failed">
                <strong>{outcome.recoveryId ? "Report not received: " : "Failed: "}</strong>
                {/* A signature the wallet gave that could not pay presend was said above to have
                    paid presend nothing; "Nothing was charged" would claim more: the page the
                    wallet answered through may hold it. */}
                {outcome.code === "wallet_signature"
                  ? outcome.message
                  : `${outcome.message} ${chargedText(outcome.charged)}`}
              </div>
            )}
            {outcome.recoveryId && recovery && <RecoveryControls {...recovery} />}
            {/* A channel out of step, or a background that stopped before paying, is mended by
                checking again, not by settings. */}
            {outcome.charged === false && outcome.code === undefined && settings}
          </>
        );
    }
  }
  if (!progress) return null;
  const cancel = onCancel && (
    <div className="row">
      <button type="button" data-action="cancel" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
  // The page the wallet is reached through can rewrite what it is asked: the wallet's own window
  // is the one place the person sees the real request, so the card says what must be there.
  const rejectOtherTerms = (
    <div className="muted" data-testid="reject-other-terms">
      If your wallet shows another amount, another recipient or another kind of request, reject it
      there: this page may have changed what your wallet is asked.
    </div>
  );
  switch (progress.step) {
    case "requesting":
      return (
        <div data-state="requesting">
          Asking the server for its price…
          {cancel}
        </div>
      );
    case "waiting-wallet": {
      const payTo = visibleEnds(progress.payTo);
      if (progress.deposit !== undefined) {
        return (
          <div className="payment" data-state="waiting-wallet" data-deposit={progress.deposit}>
            <div data-testid="payment-terms">
              <strong>
                {`Sign in your wallet: a ${formatUsdc(progress.deposit)} USDC deposit to presend's channel`}
              </strong>
              {" ("}
              <span className="mono">{payTo}</span>) on Base; unspent funds come back to you when
              you close it.
            </div>
            {cancel}
            <div className="muted">
              {`Each check then takes ${formatUsdc(progress.amount)} from it without asking your wallet again. Your wallet shows a ReceiveWithAuthorization of ${progress.deposit} (USDC counts in millionths) to the channel's deposit contract, for the payee presend's signed price list names${progress.keyPinnedNow ? " (its signing key is remembered from now on)" : ""}.`}
            </div>
            {rejectOtherTerms}
          </div>
        );
      }
      return (
        <div className="payment" data-state="waiting-wallet">
          <div data-testid="payment-terms">
            <strong>
              {`Sign in your wallet: a ${formatUsdc(progress.amount)} USDC payment to presend`}
            </strong>
            {" ("}
            <span className="mono">{payTo}</span>) on Base. The signature allows this one payment;
            it can take nothing else.
          </div>
          {/* Right under the terms: in a narrow or zoomed panel, the way out stays in view. */}
          {cancel}
          <div className="muted">
            Your wallet shows it as a TransferWithAuthorization of {progress.amount} (USDC counts in
            millionths) to {progress.payTo}, the payee presend's signed price list names
            {progress.keyPinnedNow ? " (its signing key is remembered from now on)" : ""}.
          </div>
          {rejectOtherTerms}
          {progress.from && (
            <div className="muted" data-testid="payment-sender">
              {`Checked as a payment from ${progress.from.slice(0, 4)}…${progress.from.slice(-2)}, the account paying: your own payment history is read too.`}
            </div>
          )}
        </div>
      );
    }
    case "paying":
      return <div data-state="paying">Signed. Paying…</div>;
    case "checking":
      return <div data-state="checking">Paid. Checking the address…</div>;
  }
}

/** Whether the last "Fetch my report" (from here or kept with the payment) proved no charge. */
function provenNotCharged(recovery: RecoveryControlsProps | undefined): boolean {
  if (!recovery) return false;
  return (recovery.result?.type ?? recovery.lastAttempt?.state) === "not_charged";
}
