import { badgePosition, cardHasRoom, type Rect } from "./badgePosition";
import type { BadgeLifecycle } from "./createBadgeController";
import { setHostStyle } from "./createBadgeHost";
import { keepHostAboveField } from "./keepHostAboveField";

/** What the badge is placed beside, read at each placement. */
export type PlacementTarget = { host: HTMLElement; field: Element; expanded: boolean };

export type BadgePlacementOptions = {
  win: Pick<Window, "innerWidth" | "innerHeight">;
  ctx: Pick<BadgeLifecycle, "addEventListener" | "requestAnimationFrame">;
  /** The host and its field while a badge is shown, else null. */
  target: () => PlacementTarget | null;
  /** After each placement: the badge may have moved (the click gate measures it). */
  onPlaced: () => void;
  /**
   * The host changed parent or layer (its field is in a modal dialog, a popover, a fullscreen
   * element, or left it): what covered it before says nothing of now.
   */
  onLifted?: () => void;
};

// What a person clicks or types into: the badge must not sit on any of them.
const controls =
  'button,input,select,textarea,a[href],[role="button"],[role="link"],[contenteditable="true"],[contenteditable=""]';

/** The page's visible controls in the viewport, other than the field (looked at: 1,000 at most). */
function controlsInView(
  field: Element,
  host: Element,
  viewport: { width: number; height: number },
) {
  const rects: Rect[] = [];
  const found = field.ownerDocument.querySelectorAll(controls);
  for (let i = 0; i < found.length && i < 1_000; i++) {
    const element = found[i] as Element;
    if (element === field || element === host || element.contains(field)) continue;
    const r = element.getBoundingClientRect();
    if (r.width * r.height === 0 || r.bottom < 0 || r.right < 0) continue;
    if (r.top > viewport.height || r.left > viewport.width) continue;
    rects.push(r);
  }
  return rects;
}

/**
 * Keeps the badge's host beside its field (fixed position, badgePosition: where it covers neither
 * the field nor the page's controls), now, and on the
 * next animation frame after a scroll or resize anywhere in the page. A collapsed chip whose
 * field scrolled out of view is hidden with it; an open card stays where it can be read.
 * @example const placement = createBadgePlacement({ win: window, ctx, target, onPlaced })
 */
export function createBadgePlacement(options: BadgePlacementOptions) {
  const { win, ctx } = options;
  let frame = 0;
  let offscreen = false;

  const place = () => {
    const target = options.target();
    if (!target) return;
    const { host, field, expanded } = target;
    if (keepHostAboveField(host, field)) options.onLifted?.();
    const rect = field.getBoundingClientRect();
    const viewport = { width: win.innerWidth, height: win.innerHeight };
    // A collapsed chip whose field scrolled away goes with it rather than float at the edge.
    const away = rect.bottom < 0 || rect.top > viewport.height || rect.width + rect.height === 0;
    if (away !== offscreen && !expanded) {
      offscreen = away;
      setHostStyle(host, "display", away ? "none" : "block");
    }
    if (expanded) {
      // A card that cannot sit beside the field (a phone) gets at most the larger of the room
      // below and above the field, and scrolls inside: it never covers the field it speaks about.
      const wide = host.offsetWidth + 2 * 8;
      const beside = viewport.width - rect.right >= wide || rect.left >= wide;
      const room = Math.max(viewport.height - rect.bottom, rect.top) - 2 * 8;
      setHostStyle(host, "--presend-card-room", beside ? "100vh" : `${Math.max(room, 160)}px`);
    }
    const size = { width: host.offsetWidth || 120, height: host.offsetHeight || 24 };
    const { top, left } = badgePosition(
      rect,
      viewport,
      size,
      expanded ? "card" : "chip",
      controlsInView(field, host, viewport),
    );
    setHostStyle(host, "top", `${top}px`);
    setHostStyle(host, "left", `${left}px`);
    options.onPlaced();
  };

  const schedule = () => {
    if (frame || !options.target()) return;
    frame = ctx.requestAnimationFrame(() => {
      frame = 0;
      place();
    });
  };

  ctx.addEventListener(win as Window, "scroll", schedule, { capture: true, passive: true });
  ctx.addEventListener(win as Window, "resize", schedule, { passive: true });

  return {
    /** Places the host beside its field now. */
    place,
    /**
     * Shows a hidden host, unless its field is out of view; true when it was hidden (it
     * appears, so whatever was measured of it before no longer holds).
     */
    reveal(host: HTMLElement): boolean {
      if (host.style.display === "block" || offscreen) return false;
      setHostStyle(host, "display", "block");
      return true;
    },
    /**
     * Whether the card would find a place that covers neither the field nor a control (measured
     * now, at the card's width and the height it needs to be read: 320 px).
     */
    cardFits(): boolean {
      const target = options.target();
      if (!target) return false;
      const rect = target.field.getBoundingClientRect();
      const viewport = { width: win.innerWidth, height: win.innerHeight };
      const card = { width: Math.min(440, viewport.width - 16), height: 320 };
      return cardHasRoom(rect, viewport, card, controlsInView(target.field, target.host, viewport));
    },
    /** Forgets that the field was out of view (the badge was hidden, or the card opens). */
    reset() {
      offscreen = false;
    },
  };
}
