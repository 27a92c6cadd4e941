import { type ChainName, chainById } from "@presend/shared/chains/chains";
import type { Address } from "viem";
import type { ContentScriptContext } from "wxt/utils/content-script-context";
import { assessLocally } from "../address/assessLocally";
import { ancestorsOf } from "../dom/ancestorsOf";
import { clearField } from "../dom/clearField";
import type { EditableField } from "../dom/editableFieldFrom";
import { fieldAsksForContract } from "../dom/fieldAsksForContract";
import { findReplacementField } from "../dom/findReplacementField";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type {
  CheckOutcome,
  PanelAction,
  PanelState,
  Progress,
  RecoveryOutcome,
  WalletInfo,
} from "../messaging/protocol";
import type { HistoryEntry, Route } from "../storage/schemas";
import type { BadgeProps } from "./BadgeCard";
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
import { createBadgeKeyboard } from "./createBadgeKeyboard";
import { createBadgePlacement } from "./createBadgePlacement";
import { createBadgeRenderer } from "./createBadgeRenderer";
import { createClickReadiness } from "./createClickReadiness";
import { createFieldFollower } from "./createFieldFollower";
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
  /**
   * Free facts through the page wallet's own connection (eth_getCode). The page can forge them:
   * they may add a warning ("a contract"), never clear one. Asked once the card was opened.
   */
  readCode?: (address: Address) => Promise<{ chainId: number | null; contract: boolean } | null>;
  /**
   * A paid verdict for the address and chain still fresh (checked within the freshness window,
   * here or in another tab), shown again instead of offering to pay for the same answer.
   */
  freshVerdict?: (address: Address, chain: ChainName) => HistoryEntry | null;
  /** Stops waiting for the wallet in the running check (the card's Cancel). */
  cancelCheck?: () => void;
  /** Opens the extension's settings page (through the background). */
  openSettings?: () => void;
  /** Fetches the report of a payment whose answer was lost; called only for a person's click. */
  startRecovery: (recoveryId: string) => void;
  /**
   * Loads the card (the verdict UI chunk). Asked once, on the first address entered: a page
   * where none is entered only ever carries the chip.
   */
  loadVerdictUi: () => Promise<VerdictUi>;
  /** The site (hostname) of the frame, for "Off on this site". */
  site?: string;
  /** Turns presend off on this site; called only for a person's click in the card or panel. */
  turnOffSite?: () => void;
  /**
   * Shows the details in the browser's side panel; called in a person's click (the browser
   * opens it only then). Resolves false where it could not (no side panel): the card opens.
   */
  openPanel?: () => Promise<boolean>;
  /** The side panel shows this badge: its state after each change (null: the badge went away). */
  onPanelState?: (state: PanelState | null) => void;
  /** performance.mark / measure for the paste-to-chip measurement; now() for the click gate. */
  performance: Pick<Performance, "mark" | "measure" | "now">;
};

/**
 * The one badge of a page or frame: a chip beside the field the person touched last, showing
 * the local assessment of the address it actually holds; on click a card with the details, the
 * paid checks and their result. It holds the badge's state (badgeState's transitions) and
 * composes its parts: the renderer (host, chip, card), the placement beside the field, the
 * field follower, the keyboard and pointer flow, and the click gate (visibility gate and click
 * readiness). Everything they listen to is torn down with WXT's content script context.
 * @example const badge = createBadgeController({ doc: document, win: window, ctx, known, startCheck, startRecovery, loadVerdictUi, performance })
 */
export function createBadgeController(options: BadgeControllerOptions) {
  const { doc, win, ctx } = options;
  let state: BadgeState | null = null;
  let wallet: WalletInfo | null = null;
  let walletChain: ChainName | null = null;
  // Free code facts by address and the wallet chain they were read on.
  const codeFacts = new Map<string, { chainId: number | null; contract: boolean }>();
  let codeWanted = false;
  // The person moved this badge's details into the side panel: it follows every change.
  let inPanel = false;
  const learnCode = () => {
    const normalized = state?.assessment.checksum.normalized;
    // Asked once the wallet is known: its chain is part of the answer.
    if (!codeWanted || !wallet?.available || !normalized || !options.readCode) return;
    const key = `${normalized}@${wallet.chainId ?? ""}`;
    if (codeFacts.has(key)) return;
    codeFacts.set(key, { chainId: wallet.chainId, contract: false });
    options.readCode(normalized).then((facts) => {
      if (!facts?.contract) return;
      codeFacts.set(key, facts);
      if (state?.assessment.checksum.normalized === normalized) draw();
    });
  };
  /** Where the wallet's node says a contract sits at the shown address (its chain's name), else null. */
  const contractOn = (current: BadgeState): string | null => {
    const normalized = current.assessment.checksum.normalized;
    if (!normalized || current.assessment.contractField) return null;
    for (const [key, facts] of codeFacts) {
      if (!facts.contract || !key.startsWith(`${normalized}@`)) continue;
      return (facts.chainId && chainById(facts.chainId)?.label) || "your wallet's network";
    }
    return null;
  };
  const inFrame = win !== win.top;
  const now = () => options.performance.now();

  // Clickjacking defence: a paid click counts only if the badge has stayed put and (where the
  // browser can tell, IntersectionObserver v2) been visible and uncovered for a moment.
  const visibility = createVisibilityGate({
    win: win as Window & typeof globalThis,
    now,
    onChange: () => readiness.refresh(),
  });
  const readiness = createClickReadiness({
    win,
    ctx,
    now,
    decide: () => visibility.decision(),
    active: () => state !== null && renderer.host() !== null,
    onChange: () => draw(),
  });
  const renderer = createBadgeRenderer({
    doc,
    loadVerdictUi: options.loadVerdictUi,
    onHost: (host) => visibility.watch(host),
    // A mask or a text fill the page put on the host (now undone) may have hidden the badge
    // from the person: the wait before a paid click counts starts again.
    onHostTampered: () => {
      visibility.placed();
      readiness.refresh();
    },
    onCardArrived: () => {
      if (!state?.expanded) return;
      // The card was asked for before it arrived: open it, with the focus where it would be.
      const hadFocus = renderer.activeElement() !== null;
      render();
      if (hadFocus) renderer.focusables()[0]?.focus();
    },
  });
  // The badge and what it sits beside, for the parts that place it and route keys to it.
  const shown = () => {
    const host = renderer.host();
    return state && host ? { host, field: state.field, expanded: state.expanded } : null;
  };
  const placement = createBadgePlacement({
    win,
    ctx,
    target: shown,
    // A badge that moved or changed size since last time restarts the wait before a paid click counts.
    onPlaced: () => {
      if (settled()) readiness.refresh();
    },
    onLifted: () => visibility.placed(),
  });
  const settled = (): boolean => {
    const host = renderer.host();
    return host ? visibility.measure(host) : false;
  };
  const follower = createFieldFollower({
    win,
    ctx,
    current: () => state,
    onReplaced: (field, ancestors) => {
      if (state) state = { ...state, field, ancestors };
    },
    onGone: () => hide(),
    onChanged: (field, candidate) =>
      controller.show({
        field,
        ancestors: ancestorsOf(field),
        candidate,
        trigger: "input",
        at: now(),
      }),
    onUnchanged: () => placement.place(),
  });
  createBadgeKeyboard({
    doc,
    win,
    ctx,
    target: shown,
    focusables: () => renderer.focusables(),
    activeElement: () => renderer.activeElement(),
    collapse: () => setExpanded(false, false),
  });

  /**
   * The state with the fresh paid verdict for its address and chain as the outcome, unless a
   * check runs or shows something else (a failure, a refusal): what makes a result stick across
   * reloads, tabs, a chain switched back and an address deleted and typed again.
   */
  const withFreshVerdict = (next: BadgeState): BadgeState => {
    const normalized = next.assessment.checksum.normalized;
    if (!normalized || isChecking(next)) return next;
    if (next.outcome && next.outcome.type !== "report") return next;
    if (next.outcome?.type === "report" && next.outcome.entry.chain === next.chain) return next;
    const entry = options.freshVerdict?.(normalized, next.chain) ?? null;
    if (!entry && !next.outcome) return next;
    // The check whose report is put aside (another chain) is over: its session goes with it, or
    // the badge would read as still checking (and hold the chain the wallet moves to next).
    return { ...next, session: null, outcome: entry ? { type: "report", entry } : null };
  };

  /** Renders a change of content: the badge counts as just placed. */
  const render = () => {
    visibility.placed();
    draw();
    readiness.refresh();
  };

  const draw = () => {
    const host = renderer.ensureHost();
    const current = state;
    if (!current) return;
    if (placement.reveal(host)) visibility.forgetGeometry();
    // Synchronous render: the chip is in the DOM when this returns (the latency we measure).
    renderer.render(propsOf(current, readiness.read()));
    placement.place();
    if (inPanel) options.onPanelState?.(panelState(current));
  };

  const panelState = (current: BadgeState): PanelState => ({
    site: options.site ?? "",
    candidate: current.candidate,
    contractField: current.assessment.contractField,
    chain: current.chain,
    chainSource: current.chainSource,
    progress: current.progress,
    outcome: current.outcome,
    busy: isChecking(current),
    wallet,
    inFrame,
    contractOn: contractOn(current),
    recovery: { busy: current.recovery.session !== null, result: current.recovery.result },
  });

  /** Moves the details into the side panel (in the person's click), or opens the card. */
  const openPanel = (open: () => Promise<boolean>) => {
    open().then((opened) => {
      if (!state) return;
      if (!opened) {
        inPanel = false;
        setExpanded(true, true);
        return;
      }
      inPanel = true;
      setExpanded(false, false);
      detailsShown();
      draw();
    });
  };

  /** The details are shown (card or panel): they need the page wallet and the free code facts. */
  const detailsShown = () => {
    options.onExpand?.();
    codeWanted = true;
    learnCode();
  };

  const propsOf = (current: BadgeState, clickReady: boolean): BadgeProps => ({
    assessment: current.assessment,
    chain: current.chain,
    chainSource: current.chainSource,
    progress: current.progress,
    outcome: current.outcome,
    busy: isChecking(current),
    expanded: current.expanded,
    wallet,
    inFrame,
    clickReady,
    contractOn: contractOn(current),
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
    onChainChange: (chain) => {
      if (state) replace(withFreshVerdict({ ...state, chain, chainSource: "user" }));
    },
    onCheck: (route) => {
      const normalized = current.assessment.checksum.normalized;
      // Only a running check blocks another: a finished one keeps its session (its result stays
      // with the badge), and "Check again (pays again)" must still pay.
      if (!normalized || (state && isChecking(state))) return;
      // A page can move the badge without a scroll (a transform on <html>): measure now.
      settled();
      const decision = visibility.decision();
      if (!decision.allowed) {
        // Covered, faded or just moved: the person may not have seen what they clicked.
        update({ refusedClick: decision.reason });
        return;
      }
      options.performance.mark("presend:check-click");
      options.startCheck({ route, address: normalized, chain: current.chain });
    },
    onToggle: () => {
      // No room for the card beside the field (a phone): the details go to the side panel and
      // only the chip stays in the page.
      // Once the details are in the panel, the chip brings the panel back.
      if (!current.expanded && options.openPanel && (inPanel || !placement.cardFits())) {
        openPanel(options.openPanel);
        return;
      }
      setExpanded(!current.expanded, true);
    },
    site: options.site ?? "",
    onTurnOffSite: () => {
      // No warnings on its site is what a hostile page wants most, and the setting stays: the
      // click counts only on a badge the person could see, as a paid click does.
      settled();
      const decision = visibility.decision();
      if (!decision.allowed) {
        update({ refusedClick: decision.reason });
        return;
      }
      options.turnOffSite?.();
    },
    onOpenPanel:
      options.openPanel && (() => openPanel(options.openPanel as () => Promise<boolean>)),
    onCancel: () => options.cancelCheck?.(),
    onOpenSettings: () => options.openSettings?.(),
    onClearField: () => {
      // The person's decision not to send here: the field is emptied as if they did it, and
      // the badge goes with the address (the field follower sees it gone).
      const field = current.field;
      setExpanded(false, false);
      clearField(doc, field);
      follower.follow();
    },
    onClose: () => {
      follower.dismiss(current.field, current.assessment.input);
      hide();
      current.field.focus();
    },
  });

  const update = (patch: Partial<BadgeState>) => {
    if (!state) return;
    replace({ ...state, ...patch });
  };
  /** Shows the next state (a transition of badgeState) as a change of content. */
  const replace = (next: BadgeState) => {
    // With the details in the side panel the page keeps only the chip, whatever happens (a
    // verdict arriving opens the card otherwise).
    state = inPanel && next.expanded ? { ...next, expanded: false } : next;
    render();
  };

  /** Opens or closes the card; `moveFocus` keeps a keyboard user's focus inside the badge. */
  const setExpanded = (expanded: boolean, moveFocus: boolean) => {
    if (!state || state.expanded === expanded) return;
    const hadFocus = renderer.activeElement() !== null;
    placement.reset();
    update({ expanded });
    if (expanded) detailsShown();
    if (moveFocus || hadFocus) renderer.focusables()[0]?.focus();
  };

  const hide = () => {
    if (inPanel && state) options.onPanelState?.(null);
    state = null;
    readiness.stop();
    follower.stop();
    placement.reset();
    renderer.clear();
  };

  ctx.onInvalidated(() => {
    hide();
    visibility.disconnect();
    renderer.destroy();
  });

  const controller = {
    show(entry: AddressEntry) {
      // Entered while the badge's code was still loading, the field may be gone already: a page
      // that turns a complete address into a chip at once. The badge sits beside what took its
      // place, or, with the address nowhere near, does not show.
      const field = entry.field.isConnected
        ? entry.field
        : findReplacementField(entry.ancestors, entry.candidate.value);
      if (!field) return;
      const assessment = assessLocally(entry.candidate, options.known(), {
        contractField: fieldAsksForContract(entry.field),
      });
      const next = enterAddress(
        state,
        {
          field,
          ancestors: ancestorsOf(field),
          candidate: entry.candidate,
          assessment,
        },
        walletChain,
      );
      // The same address again (typing after a paste, the page echoing it): nothing changes.
      if (next === null) return;
      if (entry.trigger === "script" && follower.dismissed(field, assessment.input)) return;
      follower.forget(field);
      state = withFreshVerdict(next);
      options.performance.mark("presend:entry", { startTime: entry.at });
      render();
      options.performance.mark("presend:chip");
      options.performance.measure(
        `presend:${entry.trigger}-to-chip`,
        "presend:entry",
        "presend:chip",
      );
      renderer.loadCard();
      follower.start();
      learnCode();
    },
    /** Re-reads the field now (after the page's own input handlers ran). */
    follow: follower.follow,
    clear(field: EditableField) {
      if (state?.field === field && !state.session) hide();
    },
    /** The wallet of this page or frame: preselects its chain unless the person picked one. */
    setWallet(info: WalletInfo) {
      // The same news again draws nothing: a redraw that moves the card restarts the click wait.
      if (wallet && JSON.stringify(wallet) === JSON.stringify(info)) return;
      wallet = info;
      walletChain = info.chainId ? (chainById(info.chainId)?.name ?? null) : null;
      const next = state ? walletChainKnown(state, walletChain) : null;
      if (next) replace(withFreshVerdict(next));
      else if (state) draw();
      learnCode();
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
    /**
     * The settings changed: a check they stopped with nothing charged (a refusal, a server that
     * could not be reached) is no longer the news; the paid checks are offered again.
     */
    settingsChanged() {
      const outcome = state?.outcome;
      if (!state || isChecking(state) || !outcome) return;
      if (outcome.type === "refused" || (outcome.type === "failed" && outcome.charged === false)) {
        replace(withFreshVerdict({ ...state, outcome: null, session: null }));
      }
    },
    /** What the side panel shows of this badge, or null when none is shown. */
    panelState: (): PanelState | null => (state ? panelState(state) : null),
    /**
     * A click in the side panel's card. A paid check is started only for the address and chain
     * the panel showed (the page may have changed the field since); the panel is the extension's
     * own page, out of the page's reach, so its click needs no visibility gate.
     */
    panelAction(action: PanelAction) {
      const current = state;
      if (!current) return;
      inPanel = true;
      const props = propsOf(current, false);
      switch (action.action) {
        case "check": {
          const normalized = current.assessment.checksum.normalized;
          if (
            isChecking(current) ||
            normalized !== action.address ||
            current.chain !== action.chain
          ) {
            return;
          }
          options.performance.mark("presend:check-click");
          options.startCheck({ route: action.route, address: normalized, chain: current.chain });
          return;
        }
        case "chain":
          return props.onChainChange(action.chain);
        case "cancel":
          return props.onCancel();
        case "clear-field":
          return props.onClearField();
        case "close":
          return props.onClose();
        case "fetch-report":
          return props.onFetchReport();
        case "off-site":
          // The panel is the extension's own page, out of the page's reach: no visibility gate.
          return options.turnOffSite?.();
      }
    },
    /** Hides the badge (the site was disabled); a running check keeps running in the background. */
    hide,
    /** Re-run the local assessment and look for a fresh verdict (the history changed). */
    refresh() {
      if (!state) return;
      const fresh = withFreshVerdict(state);
      if (fresh !== state) replace(fresh);
      if (!state.session) {
        update({
          assessment: assessLocally(state.candidate, options.known(), {
            contractField: state.assessment.contractField,
          }),
        });
      }
    },
  };
  return controller;
}
