import { chipStyles } from "../ui/chipStyles";
import { privateCustomProperties } from "../ui/privateCustomProperties";

export type BadgeHost = { host: HTMLElement; container: HTMLElement };

// Inline and !important: a page stylesheet (even with !important) cannot move, fade or
// animate the host. What it can still do from outside, cover it or style <html>, the
// visibility check of paid clicks catches (createVisibilityGate, clickGate).
// "all" leaves out direction and unicode-bidi: without their own values the badge would take the
// page's direction (<html dir="rtl">), and its English sentences would be laid out right to left,
// their full stops and buttons on the wrong side. The badge's words are English, left to right.
const hostStyle: Record<string, string> = {
  all: "initial",
  direction: "ltr",
  "unicode-bidi": "isolate",
  position: "fixed",
  "z-index": "2147483647",
  top: "0",
  left: "0",
  display: "none",
  margin: "0",
  padding: "0",
  border: "0",
  opacity: "1",
  visibility: "visible",
  transform: "none",
  translate: "none",
  scale: "none",
  rotate: "none",
  filter: "none",
  "clip-path": "none",
  mask: "none",
  transition: "none",
  animation: "none",
};

// The host is an element of the page's DOM, so a page script can still rewrite its style
// attribute: a mask or a transparent text fill on the host hides the badge while
// IntersectionObserver v2 still reports it visible (it sees neither), and a click on the
// invisible paid button would count. Each host's style attribute is watched: a change the page
// makes calls `onTampered` at once (the wait before a paid click counts starts over) and is
// undone in the next task, not in the observer's callback, so that another script fighting
// over the attribute (a page, another extension) makes a slow tug of war, never a microtask
// loop that hangs the page; no click counts while it lasts. Other attributes cannot beat the
// inline !important styles and are left to the page.
type HostGuard = {
  observer: MutationObserver;
  /** The styles the extension set, as it set them. */
  styles: Map<string, string>;
  onTampered: () => void;
  restorePending: boolean;
};
const guards = new WeakMap<HTMLElement, HostGuard>();

/** Puts the host's style back as the extension left it: the page's styles go. */
function restoreHost(host: HTMLElement, guard: HostGuard): void {
  host.removeAttribute("style");
  for (const [property, value] of guard.styles) {
    host.style.setProperty(property, value, "important");
  }
  // The records of the restore are the extension's own.
  guard.observer.takeRecords();
}

/** Sets one of the host's inline styles, !important so page CSS cannot override it. */
export function setHostStyle(host: HTMLElement, property: string, value: string): void {
  const guard = guards.get(host);
  if (!guard) {
    host.style.setProperty(property, value, "important");
    return;
  }
  // Records queued before this write are the page's; the one this write makes is ours.
  const byPage = guard.observer.takeRecords();
  guard.styles.set(property, value);
  host.style.setProperty(property, value, "important");
  guard.observer.takeRecords();
  if (byPage.length > 0) {
    guard.onTampered();
    restoreHost(host, guard);
  }
}

/**
 * The badge's own element: a fixed-position host with a CLOSED shadow root, so page scripts
 * can neither read nor click into it (host.shadowRoot is null for them) and page CSS cannot
 * restyle it. Attached to <html>, outside the page's own layout. A page script that changes
 * the host's style has `onTampered` called and sees its change undone.
 * @example const { host, container } = createBadgeHost(document, () => gate.placed())
 */
export function createBadgeHost(doc: Document, onTampered: () => void = () => {}): BadgeHost {
  const host = doc.createElement("presend-badge");
  const win = doc.defaultView ?? globalThis;
  const guard: HostGuard = {
    observer: new win.MutationObserver((records) => {
      if (records.length === 0) return;
      guard.onTampered();
      if (guard.restorePending) return;
      guard.restorePending = true;
      win.setTimeout(() => {
        guard.restorePending = false;
        restoreHost(host, guard);
      }, 0);
    }),
    styles: new Map(),
    onTampered,
    restorePending: false,
  };
  guards.set(host, guard);
  guard.observer.observe(host, { attributes: true, attributeFilter: ["style"] });
  for (const [property, value] of Object.entries(hostStyle)) setHostStyle(host, property, value);
  const shadow = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = privateCustomProperties(chipStyles);
  // The browser's text search (window.find) walks into closed roots, so a page could search for
  // the badge's words and learn what it says of an address it put in a field (checked before,
  // a lookalike of a recipient). It skips an <object>'s contents: without data the element
  // shows them as its fallback, drawn, clickable and read by screen readers like a <div>'s.
  const container = doc.createElement("object");
  container.style.display = "block";
  shadow.append(style, container);
  (doc.documentElement ?? doc).append(host);
  return { host, container };
}
