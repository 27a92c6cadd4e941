import { type ChainName, chainById } from "@presend/shared/chains/chains";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import type { Address } from "viem";
import type { ContentScriptContext } from "wxt/utils/content-script-context";
import { assessLocally } from "../address/assessLocally";
import { findAddressCandidate } from "../address/findAddressCandidate";
import type { EditableField } from "../dom/editableFieldFrom";
import { fieldText } from "../dom/fieldText";
import { findReplacementField } from "../dom/findReplacementField";
import { nextTabbableAfter } from "../dom/nextTabbableAfter";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { CheckOutcome, Progress, RecoveryOutcome, WalletInfo } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { Badge } from "./Badge";
import type { BadgeProps } from "./BadgeCard";
import { badgePosition } from "./badgePosition";
import {
  type BadgeState,
  beginCheck,
  beginRecovery,
  checkProgress,
  enterAddress,
  finishCheck,
  finishRecovery,
  isChecking,
  walletChainKnown,
} from "./badgeState";
import type { ClickDecision } from "./clickGate";
import { createBadgeHost, setHostStyle } from "./createBadgeHost";
import { createVisibilityGate } from "./createVisibilityGate";
import type { VerdictUi } from "./verdictUi";

/** What the badge needs of WXT's content script context: timers and listeners it tears down. */
export type BadgeLifecycle = Pick<
  ContentScriptContext,
  "addEventListener" | "setTimeout" | "setInterval" | "requestAnimationFrame" | "onInvalidated"
>;

export type BadgeControllerOptions = {
  doc: Document;
  win: Window;
  ctx: BadgeLifecycle;
  /** Addresses the user checked or sent to before (for the lookalike warning). */
  known: () => readonly Address[];
  /**
   * Starts a paid check; called only for a person's click (PaidCheckControls checks isTrusted)
   * on a badge that has stayed put and been seen uncovered (clickGate).
   */
  startCheck: (request: { route: Route; address: Address; chain: ChainName }) => void;
  /** The card opened (it shows the paid checks, which need the page wallet's state). */
  onExpand?: () => void;
  /** Fetches the report of a payment whose answer was lost; called only for a person's click. */
  startRecovery: (recoveryId: string) => void;
  /**
   * Loads the card (the verdict UI chunk). Asked once, on the first address entered: a page
   * where none is entered only ever carries the chip.
   */
  loadVerdictUi: () => Promise<VerdictUi>;
  /** performance.mark / measure for the paste-to-chip measurement; now() for the click gate. */
  performance: Pick<Performance, "mark" | "measure" | "now">;
};

type State = BadgeState;

// A form row and a little more: where a re-rendered field's replacement is looked for.
function ancestorsOf(field: Element, levels = 4): Element[] {
  const found: Element[] = [];
  let node: Node | null = field;
  while (node && found.length < levels) {
    node = node.parentNode ?? (node.getRootNode() as ShadowRoot).host ?? null;
    if (node && node.nodeType === 1) found.push(node as Element);
  }
  return found;
}

// How often a shown badge re-reads its field: a page may rewrite the value (lower-casing it),
// replace the element (a re-render), or move it without any event the badge could hear.
const followMs = 250;

/**
 * The one badge of a page or frame: a chip beside the field the person touched last, showing
 * the local assessment of the address it actually holds; on click a card with the details, the
 * paid checks and their result. Escape or a click outside collapse it; Tab from the field
 * reaches it. Everything it listens to is torn down with WXT's content script context.
 * @example const badge = createBadgeController({ doc: document, win: window, ctx, known, startCheck, performance })
 */
export function createBadgeController(options: BadgeControllerOptions) {
  const { doc, win, ctx } = options;
  let host: HTMLElement | null = null;
  let shadow: ShadowRoot | null = null;
  let root: Root | null = null;
  let verdictUi: VerdictUi | null = null;
  let verdictUiLoading = false;
  // The element the card is rendered into while it is open (inside the closed shadow root).
  let cardSlot: Element | null = null;
  let state: State | null = null;
  let wallet: WalletInfo | null = null;
  let walletChain: ChainName | null = null;
  let frame = 0;
  let follow = 0;
  let offscreen = false;
  const inFrame = win !== win.top;
  // Values the person dismissed, per field: a re-read of the same value does not bring it back.
  const dismissed = new WeakMap<EditableField, string>();

  // Clickjacking defence: a paid click counts only if the badge has stayed put and (where the
  // browser can tell, IntersectionObserver v2) been visible and uncovered for a moment.
  const now = () => options.performance.now();
  let shownReady = false;
  let readyTimer = 0;
  const visibility = createVisibilityGate({
    win: win as Window & typeof globalThis,
    now,
    onChange: () => refreshReady(),
  });
  const gate = (): ClickDecision => visibility.decision();

  const ensureRoot = (): Root => {
    if (!root || !host?.isConnected) {
      const created = createBadgeHost(doc);
      host = created.host;
      shadow = created.container.getRootNode() as ShadowRoot;
      root = createRoot(created.container);
      visibility.watch(host);
    }
    return root;
  };

  const place = () => {
    if (!host || !state) return;
    const rect = state.field.getBoundingClientRect();
    const viewport = { width: win.innerWidth, height: win.innerHeight };
    // A collapsed chip whose field scrolled away goes with it rather than float at the edge.
    const away = rect.bottom < 0 || rect.top > viewport.height || rect.width + rect.height === 0;
    if (away !== offscreen && !state.expanded) {
      offscreen = away;
      setHostStyle(host, "display", away ? "none" : "block");
    }
    const size = { width: host.offsetWidth || 120, height: host.offsetHeight || 24 };
    const { top, left } = badgePosition(rect, viewport, size, state.expanded ? "card" : "chip");
    setHostStyle(host, "top", `${top}px`);
    setHostStyle(host, "left", `${left}px`);
    if (settled()) refreshReady();
  };

  // A badge that moved or changed size since last time restarts the wait before a paid click counts.
  const settled = (): boolean => (host ? visibility.measure(host) : false);

  const schedulePlace = () => {
    if (frame || !state) return;
    frame = ctx.requestAnimationFrame(() => {
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
      readyTimer = ctx.setTimeout(refreshReady, Math.max(decision.readyAt - now(), 0) + 1);
    }
  };

  /** Renders a change of content: the badge counts as just placed. */
  const render = () => {
    visibility.placed();
    draw();
    refreshReady();
  };

  const loadVerdictUi = () => {
    if (verdictUi || verdictUiLoading) return;
    verdictUiLoading = true;
    options.loadVerdictUi().then(
      (ui) => {
        verdictUi = ui;
        if (!state?.expanded) return;
        // The card was asked for before it arrived: open it, with the focus where it would be.
        const hadFocus = shadow?.activeElement != null;
        render();
        if (hadFocus) focusables()[0]?.focus();
      },
      // Not loaded (the tab navigated, the extension reloaded): the next entry asks again.
      () => {
        verdictUiLoading = false;
      },
    );
  };

  const closeCard = () => {
    if (cardSlot) verdictUi?.renderCard(cardSlot, null);
    cardSlot = null;
  };

  const draw = () => {
    const current = state;
    const target = ensureRoot();
    if (!current || !host) return;
    // The card opens once its chunk is here; until then the chip stays (a moment, once).
    const ui = verdictUi;
    const expanded = current.expanded && ui !== null;
    if (!expanded) closeCard();
    if (host.style.display !== "block" && !offscreen) {
      setHostStyle(host, "display", "block");
      visibility.forgetGeometry();
    }
    shownReady = gate().allowed;
    // Synchronous render: the chip is in the DOM when this returns (the latency we measure).
    const props: BadgeProps = {
      assessment: current.assessment,
      chain: current.chain,
      chainSource: current.chainSource,
      progress: current.progress,
      outcome: current.outcome,
      busy: isChecking(current),
      expanded,
      wallet: wallet,
      inFrame: inFrame,
      clickReady: shownReady,
      refusedClick: current.refusedClick,
      recovery: {
        busy: current.recovery.session !== null,
        result: current.recovery.result,
      },
      onFetchReport: () => {
        const outcome = current.outcome;
        if (current.recovery.session !== null) return;
        if (outcome?.type !== "failed" && outcome?.type !== "forged") return;
        if (outcome.recoveryId) options.startRecovery(outcome.recoveryId);
      },
      onChainChange: (chain) => update({ chain, chainSource: "user" }),
      onCheck: (route) => {
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
      },
      onToggle: () => setExpanded(!current.expanded, true),
      onClose: () => {
        dismissed.set(current.field, current.assessment.input);
        const field = current.field;
        hide();
        field.focus();
      },
    };
    flushSync(() => target.render(<Badge {...props} />));
    if (ui && expanded) {
      const slot = shadow?.querySelector(".card-slot") ?? null;
      if (slot !== cardSlot) closeCard();
      cardSlot = slot;
      if (slot) ui.renderCard(slot, props);
    }
    place();
  };

  const update = (patch: Partial<State>) => {
    if (!state) return;
    replace({ ...state, ...patch });
  };
  /** Shows the next state (a transition of badgeState) as a change of content. */
  const replace = (next: State) => {
    state = next;
    render();
  };

  const focusables = (): HTMLElement[] =>
    shadow
      ? [
          ...shadow.querySelectorAll<HTMLElement>(
            "button:not([disabled]), select:not([disabled]), a[href], [tabindex]",
          ),
        ]
      : [];

  /** Opens or closes the card; `moveFocus` keeps a keyboard user's focus inside the badge. */
  const setExpanded = (expanded: boolean, moveFocus: boolean) => {
    if (!state || state.expanded === expanded) return;
    const hadFocus = shadow?.activeElement != null;
    offscreen = false;
    update({ expanded });
    if (expanded) options.onExpand?.();
    if (moveFocus || hadFocus) focusables()[0]?.focus();
  };

  const hide = () => {
    state = null;
    win.clearTimeout(readyTimer);
    win.clearInterval(follow);
    readyTimer = 0;
    follow = 0;
    offscreen = false;
    if (host) setHostStyle(host, "display", "none");
    closeCard();
    root?.render(null);
  };

  // The field's actual value, its replacement after a re-render, and its place on screen.
  const followField = () => {
    if (!state) return;
    if (!state.field.isConnected) {
      const replacement = findReplacementField(state.ancestors, state.assessment.input);
      if (replacement) {
        state = { ...state, field: replacement, ancestors: ancestorsOf(replacement) };
      } else if (!state.session) {
        hide();
        return;
      } else {
        return;
      }
    }
    const candidate = findAddressCandidate(fieldText(state.field));
    if (!candidate) {
      if (!state.session) hide();
      return;
    }
    if (candidate.value !== state.assessment.input) {
      controller.show({ field: state.field, candidate, trigger: "input", at: now() });
      return;
    }
    place();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!state || !host || host.style.display === "none") return;
    const path = event.composedPath();
    const inBadge = path.includes(host);
    if (event.key === "Escape" && state.expanded && (inBadge || path.includes(state.field))) {
      event.preventDefault();
      setExpanded(false, false);
      if (inBadge) focusables()[0]?.focus();
      return;
    }
    if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!inBadge) {
      // Tab from the field goes to the badge first, as if it sat right after the field.
      if (!event.shiftKey && path[0] === state.field) {
        event.preventDefault();
        focusables()[0]?.focus();
      }
      return;
    }
    const items = focusables();
    const active = shadow?.activeElement ?? null;
    if (event.shiftKey && active === items[0]) {
      event.preventDefault();
      state.field.focus();
    } else if (!event.shiftKey && active === items.at(-1)) {
      event.preventDefault();
      const next = nextTabbableAfter(state.field);
      if (next) next.focus();
      else (doc.activeElement as HTMLElement | null)?.blur();
    }
  };

  const onPointerDown = (event: Event) => {
    if (state?.expanded && host && !event.composedPath().includes(host)) setExpanded(false, false);
  };

  ctx.addEventListener(win, "scroll", schedulePlace, { capture: true, passive: true });
  ctx.addEventListener(win, "resize", schedulePlace, { passive: true });
  ctx.addEventListener(win, "keydown", onKeyDown, { capture: true });
  ctx.addEventListener(win, "pointerdown", onPointerDown, { capture: true });
  ctx.onInvalidated(() => {
    hide();
    visibility.disconnect();
    root?.unmount();
    host?.remove();
    host = null;
    root = null;
  });

  const controller = {
    show(entry: AddressEntry) {
      const assessment = assessLocally(entry.candidate, options.known());
      const next = enterAddress(
        state,
        {
          field: entry.field,
          ancestors: ancestorsOf(entry.field),
          candidate: entry.candidate,
          assessment,
        },
        walletChain,
      );
      // The same address again (typing after a paste, the page echoing it): nothing changes.
      if (next === null) return;
      if (entry.trigger === "script" && dismissed.get(entry.field) === assessment.input) return;
      dismissed.delete(entry.field);
      state = next;
      options.performance.mark("presend:entry", { startTime: entry.at });
      render();
      options.performance.mark("presend:chip");
      options.performance.measure(
        `presend:${entry.trigger}-to-chip`,
        "presend:entry",
        "presend:chip",
      );
      loadVerdictUi();
      if (!follow) follow = ctx.setInterval(followField, followMs);
    },
    /** Re-reads the field now (after the page's own input handlers ran). */
    follow: followField,
    clear(field: EditableField) {
      if (state?.field === field && !state.session) hide();
    },
    /** The wallet of this page or frame: preselects its chain unless the person picked one. */
    setWallet(info: WalletInfo) {
      wallet = info;
      walletChain = info.chainId ? (chainById(info.chainId)?.name ?? null) : null;
      const next = state ? walletChainKnown(state, walletChain) : null;
      if (next) replace(next);
      else if (state) draw();
    },
    beginSession(session: string) {
      if (state) replace(beginCheck(state, session));
    },
    /** A click on "Fetch my report" started fetching the lost report under `session`. */
    beginRecovery(session: string) {
      if (state) replace(beginRecovery(state, session));
    },
    /** The lost report came back (shown as the verdict) or the attempt ended otherwise. */
    finishRecovery(session: string, outcome: RecoveryOutcome) {
      const next = state ? finishRecovery(state, session, outcome) : null;
      if (next) replace(next);
    },
    progress(session: string, progress: Progress) {
      const next = state ? checkProgress(state, session, progress) : null;
      if (next) replace(next);
    },
    finish(session: string, outcome: CheckOutcome) {
      const next = state ? finishCheck(state, session, outcome) : null;
      if (!next) return;
      replace(next);
      if (outcome.type === "report") {
        // Click to verdict on screen, for the e2e measurement (like paste-to-chip).
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
  return controller;
}
