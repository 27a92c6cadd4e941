import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { tabbableIn } from "../dom/tabbableIn";
import { Badge } from "./Badge";
import type { BadgeProps } from "./BadgeCard";
import { createBadgeHost, setHostStyle } from "./createBadgeHost";
import type { VerdictUi } from "./verdictUi";

export type BadgeRendererOptions = {
  doc: Document;
  /** Loads the card (the verdict UI chunk); asked once, again only after a failure. */
  loadVerdictUi: () => Promise<VerdictUi>;
  /** A host was created: the first, or a new one after the page removed the last. */
  onHost: (host: HTMLElement) => void;
  /** The card's chunk arrived (a card asked for before can open now). */
  onCardArrived: () => void;
  /** A page script changed the host's attributes (undone): what it showed may not have been seen. */
  onHostTampered?: () => void;
};

/**
 * What the badge looks like: its host (a closed shadow root, createBadgeHost) with the chip
 * rendered synchronously, and once the verdict UI chunk is here, the card in the chip's card
 * slot. Until the chunk arrived a card asked for stays a chip.
 * @example const renderer = createBadgeRenderer({ doc: document, loadVerdictUi, onHost, onCardArrived }); renderer.render(props)
 */
export function createBadgeRenderer(options: BadgeRendererOptions) {
  const { doc } = options;
  let host: HTMLElement | null = null;
  let shadow: ShadowRoot | null = null;
  let root: Root | null = null;
  let verdictUi: VerdictUi | null = null;
  let verdictUiLoading = false;
  // The element the card is rendered into while it is open (inside the closed shadow root).
  let cardSlot: Element | null = null;

  const ensureHost = (): HTMLElement => {
    if (!root || !host?.isConnected) {
      const created = createBadgeHost(doc, () => options.onHostTampered?.());
      host = created.host;
      shadow = created.container.getRootNode() as ShadowRoot;
      root = createRoot(created.container);
      options.onHost(host);
    }
    return host;
  };

  /**
   * The badge's controls in tab order, the disclosures' summaries among them (the first or last
   * one decides where Tab and Shift+Tab leave the badge), none that a closed disclosure hides.
   */
  const focusables = (): HTMLElement[] => (shadow ? tabbableIn(shadow) : []);

  // A control with the focus that a render disables or removes (a paid button once its check
  // starts or while the click gate waits, Cancel once the wallet signed) would leave a keyboard
  // user on the page's body, far from the result: the focus stays in the badge, on the card
  // (where Tab goes on to its controls and Escape still closes it), else on the chip.
  const keepFocusInBadge = () => {
    const active = shadow?.activeElement ?? null;
    if (active?.isConnected && !active.matches(":disabled")) return;
    const card = shadow?.querySelector<HTMLElement>('[data-testid="card"]') ?? null;
    (card ?? focusables()[0])?.focus();
  };

  const closeCard = () => {
    if (cardSlot) verdictUi?.renderCard(cardSlot, null);
    cardSlot = null;
  };

  return {
    /** The host, created (or created again, when the page removed it) if needed. */
    ensureHost,
    /** The current host, if any (it may have been removed by the page). */
    host: () => host,
    /** Whether the card's chunk is here (a card asked for opens). */
    cardReady: () => verdictUi !== null,
    /** Loads the card's chunk, once; a failed load is asked again on the next call. */
    loadCard() {
      if (verdictUi || verdictUiLoading) return;
      verdictUiLoading = true;
      options.loadVerdictUi().then(
        (ui) => {
          verdictUi = ui;
          options.onCardArrived();
        },
        // Not loaded (the tab navigated, the extension reloaded): the next entry asks again.
        () => {
          verdictUiLoading = false;
        },
      );
    },
    /**
     * Renders the badge synchronously (it is in the DOM when this returns): the card when
     * `props.expanded` and the chunk is here, else the chip.
     */
    render(props: BadgeProps) {
      const target = ensureHost();
      const hadFocus = (shadow?.activeElement ?? null) !== null;
      const ui = verdictUi;
      const expanded = props.expanded && ui !== null;
      if (!expanded) closeCard();
      const shown = { ...props, expanded };
      flushSync(() => root?.render(<Badge {...shown} />));
      if (ui && expanded) {
        const slot = shadow?.querySelector(".card-slot") ?? null;
        if (slot !== cardSlot) closeCard();
        cardSlot = slot;
        if (slot) ui.renderCard(slot, shown);
      }
      if (hadFocus) keepFocusInBadge();
      return target;
    },
    /** The badge's controls in tab order. */
    focusables,
    /** The focused element inside the badge, else null. */
    activeElement: (): Element | null => shadow?.activeElement ?? null,
    /** Hides the host and renders nothing (the host stays for the next badge). */
    clear() {
      if (host) setHostStyle(host, "display", "none");
      closeCard();
      root?.render(null);
    },
    /** Removes the host for good (the content script's context ended). */
    destroy() {
      root?.unmount();
      host?.remove();
      host = null;
      root = null;
    },
  };
}
