import { type ClickDecision, clickAllowed } from "./clickGate";

// IntersectionObserver v2 (Chromium): trackVisibility and isVisible are not in lib.dom yet.
type VisibilityObserverInit = IntersectionObserverInit & {
  trackVisibility: boolean;
  delay: number;
};
type VisibilityEntry = IntersectionObserverEntry & { isVisible?: unknown };
type Visibility = { supported: boolean | null; isVisible: boolean; visibleSince: number | null };

export type VisibilityGateOptions = {
  /** Where IntersectionObserver comes from (the badge's window). */
  win: Pick<typeof globalThis, "IntersectionObserver">;
  now: () => number;
  /** The visibility report changed: whether a click would count may have changed too. */
  onChange: () => void;
};

/**
 * The badge's clickjacking defence, as state: when it was last placed (appeared, moved,
 * resized, changed content) and whether IntersectionObserver v2 has seen it visible and
 * uncovered, and since when. `decision()` says whether a paid click counts now (clickGate).
 * @example const gate = createVisibilityGate({ win: window, now: () => performance.now(), onChange }); gate.watch(host)
 */
export function createVisibilityGate(options: VisibilityGateOptions) {
  const { now } = options;
  let placedAt = now();
  let geometry = "";
  let visibility: Visibility = { supported: false, isVisible: false, visibleSince: null };
  let observer: IntersectionObserver | null = null;
  let shrunk = false;

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
    options.onChange();
  };

  return {
    /** Observes `target` (a new host element): not seen until the browser reports it. */
    watch(target: Element) {
      observer?.disconnect();
      observer = null;
      const Observer = options.win.IntersectionObserver;
      if (typeof Observer !== "function") {
        visibility = { supported: false, isVisible: false, visibleSince: null };
        return;
      }
      visibility = { supported: null, isVisible: false, visibleSince: null };
      const init: VisibilityObserverInit = { trackVisibility: true, delay: 100, threshold: [1] };
      try {
        observer = new Observer(onVisibility, init);
      } catch {
        visibility = { supported: false, isVisible: false, visibleSince: null };
        return;
      }
      observer.observe(target);
    },
    /** The badge's content changed: it counts as just placed. */
    placed() {
      placedAt = now();
    },
    /**
     * Measures where `host` is on screen (a transform on <html> moves it too); a badge that moved
     * or changed size restarts the wait. Returns whether it moved.
     */
    measure(host: Pick<HTMLElement, "getBoundingClientRect" | "offsetWidth">): boolean {
      const r = host.getBoundingClientRect();
      // A page can shrink the badge (CSS zoom or a scale transform on an ancestor) until its
      // buttons are a few pixels wide: a click there may not be meant. Drawn smaller than it is
      // laid out, the badge takes no paid click.
      const zoom = (host as { currentCSSZoom?: number }).currentCSSZoom ?? 1;
      shrunk = zoom < 0.95 || (host.offsetWidth > 0 && r.width < host.offsetWidth * 0.95);
      const measured = `${r.x},${r.y},${r.width},${r.height}`;
      if (measured === geometry) return false;
      geometry = measured;
      placedAt = now();
      return true;
    },
    /** Forget the last geometry (the host was shown again): the next measure counts as a move. */
    forgetGeometry() {
      geometry = "";
    },
    decision(): ClickDecision {
      if (shrunk) return { allowed: false, reason: "hidden", readyAt: null };
      return clickAllowed({ now: now(), placedAt, ...visibility });
    },
    disconnect() {
      observer?.disconnect();
      observer = null;
    },
  };
}
