import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import type { Address } from "viem";
import { type ChainName, chainById } from "../../../../shared/chains/chains";
import { assessLocally, type LocalAssessment } from "../address/assessLocally";
import type { EditableField } from "../dom/editableFieldFrom";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { CheckOutcome, Progress, WalletInfo } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { Badge } from "./Badge";
import { badgePosition } from "./badgePosition";
import { type ClickDecision, clickAllowed } from "./clickGate";
import { createBadgeHost, setHostStyle } from "./createBadgeHost";

export type BadgeControllerOptions = {
  doc: Document;
  win: Window;
  /** Addresses the user checked or sent to before (for the lookalike warning). */
  known: () => readonly Address[];
  /**
   * Starts a paid check; called only for a person's click (PaidCheckControls checks isTrusted)
   * on a badge that has stayed put and been seen uncovered (clickGate).
   */
  startCheck: (request: { route: Route; address: Address; chain: ChainName }) => void;
  /** performance.mark / measure for the paste-to-badge measurement; now() for the click gate. */
  performance: Pick<Performance, "mark" | "measure" | "now">;
};

// IntersectionObserver v2 (Chromium): trackVisibility and isVisible are not in lib.dom yet.
type VisibilityObserverInit = IntersectionObserverInit & {
  trackVisibility: boolean;
  delay: number;
};
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: unknown };

type State = {
  field: EditableField;
  candidate: AddressEntry["candidate"];
  assessment: LocalAssessment;
  chain: ChainName;
  chainSource: "wallet" | "default" | "user";
  session: string | null;
  progress: Progress | null;
  outcome: CheckOutcome | null;
  /** The last paid click was refused (covered, hidden or just moved badge); nothing started. */
  refusedClick: "hidden" | "moved" | null;
};

/**
 * The one badge of a page: shows the local assessment of the address in the field the person
 * touched last, follows that field, and shows the paid check's progress and result.
 * @example const badge = createBadgeController({ doc: document, win: window, known, startCheck, performance })
 */
export function createBadgeController(options: BadgeControllerOptions) {
  const { doc, win } = options;
  let host: HTMLElement | null = null;
  let root: Root | null = null;
  let state: State | null = null;
  let walletChain: ChainName | null = null;
  let frame = 0;

  // Clickjacking defence: a paid click counts only if the badge has stayed put and (where the
  // browser can tell, IntersectionObserver v2) been visible and uncovered for a moment.
  const now = () => options.performance.now();
  let placedAt = now();
  let geometry = "";
  let visibility: { supported: boolean | null; isVisible: boolean; visibleSince: number | null } = {
    supported: false,
    isVisible: false,
    visibleSince: null,
  };
  let visibilityObserver: IntersectionObserver | null = null;
  let shownReady = false;
  let readyTimer = 0;
  const gate = (): ClickDecision => clickAllowed({ now: now(), placedAt, ...visibility });

  const watchVisibility = (target: HTMLElement) => {
    visibilityObserver?.disconnect();
    visibilityObserver = null;
    const Observer = (win as Window & typeof globalThis).IntersectionObserver;
    if (typeof Observer !== "function") {
      visibility = { supported: false, isVisible: false, visibleSince: null };
      return;
    }
    visibility = { supported: null, isVisible: false, visibleSince: null };
    const init: VisibilityObserverInit = { trackVisibility: true, delay: 100, threshold: [1] };
    try {
      visibilityObserver = new Observer(onVisibility, init);
    } catch {
      visibility = { supported: false, isVisible: false, visibleSince: null };
      return;
    }
    visibilityObserver.observe(target);
  };

  const onVisibility = (entries: IntersectionObserverEntry[]) => {
    const entry = entries.at(-1) as VisibilityEntry | undefined;
    if (!entry) return;
    if (typeof entry.isVisible !== "boolean") {
      // No IOv2 in this browser: only the appearance delay protects the click.
      visibility = { supported: false, isVisible: false, visibleSince: null };
    } else if (!entry.isVisible) {
      visibility = { supported: true, isVisible: false, visibleSince: null };
    } else if (!visibility.isVisible) {
      // The report's own time would be earlier; the callback's time errs on the safe side.
      visibility = { supported: true, isVisible: true, visibleSince: now() };
    }
    refreshReady();
  };

  const ensureRoot = (): Root => {
    if (!root || !host?.isConnected) {
      const created = createBadgeHost(doc);
      host = created.host;
      root = createRoot(created.container);
      watchVisibility(host);
    }
    return root;
  };

  const place = () => {
    if (!host || !state) return;
    if (!state.field.isConnected) {
      hide();
      return;
    }
    const rect = state.field.getBoundingClientRect();
    const size = { width: host.offsetWidth || 320, height: host.offsetHeight || 110 };
    const { top, left } = badgePosition(
      rect,
      { width: win.innerWidth, height: win.innerHeight },
      size,
    );
    setHostStyle(host, "top", `${top}px`);
    setHostStyle(host, "left", `${left}px`);
    if (settled()) refreshReady();
  };

  // Where the badge is on screen (a transform on <html> moves it too). A badge that moved or
  // changed size since last time restarts the wait before a paid click counts.
  const settled = (): boolean => {
    if (!host) return false;
    const r = host.getBoundingClientRect();
    const measured = `${r.x},${r.y},${r.width},${r.height}`;
    if (measured === geometry) return false;
    geometry = measured;
    placedAt = now();
    return true;
  };

  const schedulePlace = () => {
    if (frame || !state) return;
    frame = win.requestAnimationFrame(() => {
      frame = 0;
      place();
    });
  };

  // The badge says whether a paid click would count now (data-click-ready, inside the closed
  // root), and re-renders when that changes.
  const refreshReady = () => {
    win.clearTimeout(readyTimer);
    readyTimer = 0;
    if (!state || !host) return;
    const decision = gate();
    if (decision.allowed !== shownReady) draw();
    if (!decision.allowed && decision.readyAt !== null) {
      readyTimer = win.setTimeout(refreshReady, Math.max(decision.readyAt - now(), 0) + 1);
    }
  };

  /** Renders a change of content: the badge counts as just placed. */
  const render = () => {
    placedAt = now();
    draw();
    refreshReady();
  };

  const draw = () => {
    const current = state;
    const target = ensureRoot();
    if (!current || !host) return;
    if (host.style.display !== "block") {
      setHostStyle(host, "display", "block");
      geometry = "";
    }
    shownReady = gate().allowed;
    // Synchronous render: the badge is in the DOM when this returns (the latency we measure).
    flushSync(() =>
      target.render(
        <Badge
          assessment={current.assessment}
          chain={current.chain}
          chainSource={current.chainSource}
          progress={current.progress}
          outcome={current.outcome}
          busy={current.session !== null && current.outcome === null}
          clickReady={shownReady}
          refusedClick={current.refusedClick}
          onChainChange={(chain) => update({ chain, chainSource: "user" })}
          onCheck={(route) => {
            const normalized = current.assessment.checksum.normalized;
            if (!normalized || state?.session) return;
            // A page can move the badge without a scroll (a transform on <html>): measure now.
            settled();
            const decision = gate();
            if (!decision.allowed) {
              // Covered, faded or just moved: the person may not have seen what they clicked.
              update({ refusedClick: decision.reason });
              return;
            }
            options.performance.mark("presend:check-click");
            options.startCheck({ route, address: normalized, chain: current.chain });
          }}
          onClose={hide}
        />,
      ),
    );
    place();
  };

  const update = (patch: Partial<State>) => {
    if (!state) return;
    state = { ...state, ...patch };
    render();
  };

  const hide = () => {
    state = null;
    win.clearTimeout(readyTimer);
    readyTimer = 0;
    if (host) setHostStyle(host, "display", "none");
    root?.render(null);
  };

  win.addEventListener("scroll", schedulePlace, true);
  win.addEventListener("resize", schedulePlace);
  // A field the page removes takes its badge with it.
  const observer = new (win as Window & typeof globalThis).MutationObserver(() => {
    if (state && !state.field.isConnected) hide();
  });
  observer.observe(doc.documentElement ?? doc, { childList: true, subtree: true });

  return {
    show(entry: AddressEntry) {
      const assessment = assessLocally(entry.candidate, options.known());
      const sameAddress =
        state?.field === entry.field && state.assessment.input === assessment.input;
      if (sameAddress && state) {
        // Typing after a paste, or the page echoing the pasted value: keep any paid result.
        return;
      }
      // A new address ends whatever check was shown for the previous one.
      const chain = state?.chainSource === "user" ? state.chain : (walletChain ?? "base");
      state = {
        field: entry.field,
        candidate: entry.candidate,
        assessment,
        chain,
        chainSource: state?.chainSource === "user" ? "user" : walletChain ? "wallet" : "default",
        session: null,
        progress: null,
        outcome: null,
        refusedClick: null,
      };
      options.performance.mark("presend:entry", { startTime: entry.at });
      render();
      options.performance.mark("presend:badge");
      options.performance.measure(
        `presend:${entry.trigger}-to-badge`,
        "presend:entry",
        "presend:badge",
      );
    },
    clear(field: EditableField) {
      if (state?.field === field && !state.session) hide();
    },
    /** The dApp wallet's chain changed: preselect it unless the person picked a chain. */
    setWallet(info: WalletInfo) {
      walletChain = info.chainId ? (chainById(info.chainId)?.name ?? null) : null;
      if (state && state.chainSource !== "user" && walletChain && !state.session) {
        update({ chain: walletChain, chainSource: "wallet" });
      }
    },
    beginSession(session: string) {
      update({ session, progress: { step: "requesting" }, outcome: null, refusedClick: null });
    },
    progress(session: string, progress: Progress) {
      if (state?.session === session) update({ progress });
    },
    finish(session: string, outcome: CheckOutcome) {
      if (state?.session !== session) return;
      update({ outcome, progress: null });
      if (outcome.type === "report") {
        // Click to verdict on screen, for the e2e measurement (like paste-to-badge).
        options.performance.mark("presend:verdict");
        options.performance.measure(
          "presend:click-to-verdict",
          "presend:check-click",
          "presend:verdict",
        );
      }
    },
    /** Hides the badge (the site was disabled); a running check keeps running in the background. */
    hide,
    /** Re-run the local assessment (the known addresses changed). */
    refresh() {
      if (state && !state.session) {
        update({ assessment: assessLocally(state.candidate, options.known()) });
      }
    },
  };
}
