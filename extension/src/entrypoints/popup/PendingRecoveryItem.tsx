import { chains } from "@presend/shared/chains/chains";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { useState } from "react";
import { randomHex } from "../../lib/dom/randomHex";
import type { Messenger } from "../../lib/messaging/messenger";
import type { RecoveryOutcome } from "../../lib/messaging/protocol";
import { pendingRecoveries } from "../../lib/storage/items";
import type { PendingRecovery } from "../../lib/storage/schemas";
import { RecoveryControls } from "../../lib/ui/RecoveryControls";

/**
 * A payment whose report did not arrive, in the popup: what was paid for, and "Fetch my report"
 * with the active tab's wallet. It leaves the list once the report is back (in Recent results).
 */
export function PendingRecoveryItem({
  recovery,
  messenger,
  tabId,
}: {
  recovery: PendingRecovery;
  messenger: Messenger;
  tabId: number | null;
}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Exclude<RecoveryOutcome, { type: "recovered" }> | null>(
    null,
  );
  const fetchReport = () => {
    if (busy || tabId === null) return;
    setBusy(true);
    messenger
      .send("recovery.fetch", {
        session: randomHex(16),
        recoveryId: recovery.id,
        source: { kind: "popup", tabId, frameId: 0 },
      })
      .then(
        (outcome) => setResult(outcome.type === "recovered" ? null : outcome),
        (error: unknown) =>
          setResult({
            type: "failed",
            message: error instanceof Error ? error.message : String(error),
          }),
      )
      .finally(() => setBusy(false));
  };
  const provenNotCharged = (result?.type ?? recovery.lastAttempt?.state) === "not_charged";
  return (
    <div data-testid="recovery-entry" data-id={recovery.id}>
      <div>
        <span className="mono">{recovery.address}</span> on {chains[recovery.chain].label} (
        {recovery.route}): {formatUsdc(BigInt(recovery.amount))} signed{" "}
        {new Date(recovery.sentAt).toLocaleString()}
        {recovery.transaction ? (
          <span className="muted">
            {" "}
            settlement <span className="mono">{recovery.transaction}</span>
          </span>
        ) : (
          <span className="muted"> Charged: unknown.</span>
        )}
      </div>
      <RecoveryControls
        busy={busy}
        result={result}
        lastAttempt={recovery.lastAttempt}
        onFetch={fetchReport}
      />
      {provenNotCharged && (
        <button
          type="button"
          data-action="dismiss-recovery"
          onClick={() =>
            void pendingRecoveries.update((list) => list.filter((r) => r.id !== recovery.id))
          }
        >
          Dismiss
        </button>
      )}
    </div>
  );
}
