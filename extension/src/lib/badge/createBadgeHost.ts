import { chipStyles } from "../ui/chipStyles";

export type BadgeHost = { host: HTMLElement; container: HTMLElement };

// Inline and !important: a page stylesheet (even with !important) cannot move, fade or
// animate the host. What it can still do from outside, cover it or style <html>, the
// visibility check of paid clicks catches (createVisibilityGate, clickGate).
const hostStyle: Record<string, string> = {
  all: "initial",
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

/** Sets one of the host's inline styles, !important so page CSS cannot override it. */
export function setHostStyle(host: HTMLElement, property: string, value: string): void {
  host.style.setProperty(property, value, "important");
}

/**
 * The badge's own element: a fixed-position host with a CLOSED shadow root, so page scripts
 * can neither read nor click into it (host.shadowRoot is null for them) and page CSS cannot
 * restyle it. Attached to <html>, outside the page's own layout.
 * @example const { host, container } = createBadgeHost(document)
 */
export function createBadgeHost(doc: Document): BadgeHost {
  const host = doc.createElement("presend-badge");
  for (const [property, value] of Object.entries(hostStyle)) setHostStyle(host, property, value);
  const shadow = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = chipStyles;
  const container = doc.createElement("div");
  shadow.append(style, container);
  (doc.documentElement ?? doc).append(host);
  return { host, container };
}
