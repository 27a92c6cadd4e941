import { nextTabbableAfter } from "../dom/nextTabbableAfter";
import type { BadgeLifecycle } from "./createBadgeController";

/** The badge as the keyboard sees it: its host, the field it sits beside, and whether it is open. */
export type KeyboardTarget = { host: HTMLElement; field: HTMLElement; expanded: boolean };

export type BadgeKeyboardOptions = {
  doc: Pick<Document, "activeElement">;
  win: Window;
  ctx: Pick<BadgeLifecycle, "addEventListener">;
  /** The badge shown, else null. */
  target: () => KeyboardTarget | null;
  /** The badge's controls in tab order (inside its closed shadow root). */
  focusables: () => HTMLElement[];
  /** The focused element inside the badge, else null. */
  activeElement: () => Element | null;
  /** Closes the card, back to the chip. */
  collapse: () => void;
};

/**
 * The badge's place in the keyboard and pointer flow of the page: Tab from the field reaches
 * the badge's first control, as if it sat right after the field; Shift+Tab from there returns
 * to the field and Tab from its last control goes on to what follows the field; Escape (in the
 * badge or the field) and a pointer down outside close the card. Only the person's own keys and
 * pointer count: events a page script dispatches move nothing.
 * @example createBadgeKeyboard({ doc: document, win: window, ctx, target, focusables, activeElement, collapse })
 */
export function createBadgeKeyboard(options: BadgeKeyboardOptions): void {
  const { doc, win, ctx, focusables } = options;
  const focusFirst = () => focusables()[0]?.focus();

  const onKeyDown = (event: KeyboardEvent) => {
    // A page script's own keydown (isTrusted false) would otherwise move the focus into the
    // badge, so the person's next Enter or Space lands on one of its buttons, or close the card.
    if (!event.isTrusted) return;
    const target = options.target();
    if (!target || target.host.style.display === "none") return;
    const { host, field } = target;
    const path = event.composedPath();
    const inBadge = path.includes(host);
    // Escape closes an open card wherever the focus is (after a click on the page, or on a
    // verdict's text, it is on neither the badge nor the field); the page still sees the key
    // unless it was meant for the badge or its field.
    if (event.key === "Escape" && target.expanded) {
      if (inBadge || path.includes(field)) event.preventDefault();
      options.collapse();
      if (inBadge) focusFirst();
      return;
    }
    if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!inBadge) {
      // Tab from the field goes to the badge first, as if it sat right after the field.
      if (!event.shiftKey && path[0] === field) {
        event.preventDefault();
        focusFirst();
      }
      return;
    }
    const items = focusables();
    const active = options.activeElement();
    if (event.shiftKey && active === items[0]) {
      event.preventDefault();
      field.focus();
    } else if (!event.shiftKey && active === items.at(-1)) {
      event.preventDefault();
      const next = nextTabbableAfter(field);
      if (next) next.focus();
      else (doc.activeElement as HTMLElement | null)?.blur();
    }
  };

  const onPointerDown = (event: Event) => {
    // Only the person's pointer closes the card: a page script's event would hide the verdict.
    if (!event.isTrusted) return;
    const target = options.target();
    if (target?.expanded && !event.composedPath().includes(target.host)) options.collapse();
  };

  ctx.addEventListener(win, "keydown", onKeyDown, { capture: true });
  ctx.addEventListener(win, "pointerdown", onPointerDown, { capture: true });
}
