import type { MouseEvent } from "react";
import type { RecoveryOutcome } from "../messaging/protocol";
import type { PendingRecovery } from "../storage/schemas";
import { recoveryWords } from "./recoveryWords";

export type RecoveryControlsProps = {
  /** A fetch is under way (the wallet is asked for the receipt signature). */
  busy: boolean;
  /** How the last fetch from here ended; a recovered report is shown by the caller instead. */
  result: Exclude<RecoveryOutcome, { type: "recovered" }> | null;
  /** The last attempt kept with the pending payment (from any part of the extension). */
  lastAttempt?: PendingRecovery["lastAttempt"];
  /** Called only for a person's click: clicks a script synthesises are ignored. */
  onFetch: () => void;
};

/**
 * "Fetch my report" for a payment whose report did not arrive: the payer signs a receipt
 * request (no payment) and the report comes back through /receipts, verified with the pinned
 * key. Says where the last attempt stands: not decided yet, forged, declined, not charged.
 */
export function RecoveryControls(props: RecoveryControlsProps) {
  const onClick = (event: MouseEvent<HTMLButtonElement>) => {
    // isTrusted is false for clicks a page script synthesises; only a person asks the wallet.
    if (event.nativeEvent.isTrusted) props.onFetch();
  };
  const last = props.result
    ? { state: props.result.type, message: props.result.message }
    : (props.lastAttempt ?? null);
  const shown = last && last.state !== "unknown" ? recoveryWords(last.state) : null;
  const settled = last?.state === "not_charged";
  return (
    <div
      className="recovery"
      data-testid="recovery"
      data-state={`recovery-${last?.state ?? "new"}`}
    >
      {shown && last && (
        <div className={`alert level-${shown.level}`} data-testid="recovery-result">
          <strong>{shown.title} </strong>
          {last.message}
        </div>
      )}
      {props.busy ? (
        <div data-state="recovery-busy">
          Waiting for your wallet's signature of the receipt request (it pays nothing)…
        </div>
      ) : (
        !settled && (
          <div className="row">
            <button type="button" className="primary" data-action="fetch-report" onClick={onClick}>
              {last && last.state !== "unknown" ? "Try again" : "Fetch my report"}
            </button>
            <span className="muted">
              Your wallet signs a receipt request (no payment) to prove you paid.
            </span>
          </div>
        )
      )}
    </div>
  );
}
