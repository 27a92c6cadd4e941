import { useEffect, useMemo, useState } from "react";
import { browser } from "wxt/browser";
import { assessLocally } from "../address/assessLocally";
import { BadgeCard, type BadgeProps } from "../badge/BadgeCard";
import type { Messenger } from "../messaging/messenger";
import type { PanelAction, PanelState } from "../messaging/protocol";
import { useStoredValue } from "../queries/useStoredValue";
import { history, sentRecipients } from "../storage/items";
import { knownAddresses } from "../storage/knownAddresses";
import type { PanelTarget } from "./openSidePanel";

// A paid button counts only after what it pays for stayed on screen this long: the page may
// change the field (and so the panel) right before a click.
const settleMs = 500;

/**
 * The browser's side panel: the card of the badge in `target` (a tab's frame), for screens with
 * no room for the card beside the field. The chip stays in the page; the panel follows the
 * badge's changes and sends its clicks back to it. It assesses the address itself, as the
 * badge does, from the stored history.
 */
export function SidePanel({
  messenger,
  target,
}: {
  messenger: Messenger;
  target: PanelTarget | null;
}) {
  const [state, setState] = useState<PanelState | null | undefined>(undefined);
  const [ready, setReady] = useState(false);
  const checked = useStoredValue(history);
  const sent = useStoredValue(sentRecipients);
  const known = useMemo(
    () => knownAddresses(checked.data ?? [], sent.data ?? []),
    [checked.data, sent.data],
  );

  useEffect(() => {
    if (!target) {
      setState(null);
      return;
    }
    messenger
      .sendToTab(target.tabId, "panel.state", {}, target.frameId)
      .then(setState, () => setState(null));
    return messenger.handle({
      "panel.changed": async ({ state: next }, sender) => {
        if (sender.tab?.id === target.tabId && (sender.frameId ?? 0) === target.frameId) {
          setState(next);
        }
        return null;
      },
    });
  }, [messenger, target]);

  const shownKey = state ? `${state.candidate.value}@${state.chain}` : "";
  useEffect(() => {
    setReady(false);
    if (!shownKey) return;
    const timer = setTimeout(() => setReady(true), settleMs);
    return () => clearTimeout(timer);
  }, [shownKey]);

  if (state === undefined) return <div className="presend muted">Loading…</div>;
  if (!state || !target) {
    return (
      <div className="presend" data-testid="panel-empty">
        <p>
          <span className="brand">presend</span>
        </p>
        <p>
          No address in this page right now. Paste one into a field: its chip appears beside it, and
          its details show here.
        </p>
      </div>
    );
  }

  const act = (action: PanelAction) =>
    void messenger
      .sendToTab(target.tabId, "panel.action", action, target.frameId)
      .catch(() => null);
  const assessment = assessLocally(state.candidate, known, { contractField: state.contractField });
  const props: BadgeProps = {
    ...state,
    // A recovered report arrives as the outcome; the recovery line shows only the other ends.
    recovery: {
      busy: state.recovery.busy,
      result: state.recovery.result?.type === "recovered" ? null : state.recovery.result,
    },
    assessment,
    expanded: true,
    clickReady: ready,
    refusedClick: null,
    inPanel: true,
    onChainChange: (chain) => act({ action: "chain", chain }),
    onCheck: (route) => {
      const address = assessment.checksum.normalized;
      if (address && ready) act({ action: "check", route, address, chain: state.chain });
    },
    onToggle: () => window.close(),
    onClose: () => act({ action: "close" }),
    onClearField: () => act({ action: "clear-field" }),
    onCancel: () => act({ action: "cancel" }),
    onOpenSettings: () => void browser.runtime.openOptionsPage(),
    onFetchReport: () => act({ action: "fetch-report" }),
    onTurnOffSite: () => act({ action: "off-site" }),
  };
  return (
    <div className="presend side-panel" data-testid="side-panel">
      <BadgeCard {...props} />
    </div>
  );
}
