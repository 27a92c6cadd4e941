// Open modal dialogs, popovers and fullscreen elements are drawn in the browser's top layer,
// above any z-index: a host on <html> sits under them, where the person cannot see it (a
// "Don't send" included), and a modal dialog makes everything outside itself inert, so the chip
// could not be clicked either. A field inside one gets its host raised into the top layer too (a
// manual popover shown after the field's container, so above it), and moved inside the container
// where it can be (a dialog's or a popover's light DOM): outside a modal dialog it would stay
// inert, and a click outside an auto popover closes the page's popover.
const topLayerSelectors = [":modal", ":popover-open", ":fullscreen"];

function inTopLayer(element: Element): boolean {
  return topLayerSelectors.some((selector) => {
    try {
      return element.matches(selector);
    } catch {
      // A browser without this pseudo-class has no such top-layer element either.
      return false;
    }
  });
}

/** The innermost open top-layer element the field is in (crossing shadow roots), else null. */
export function topLayerOf(field: Element): Element | null {
  let node: Node | null | undefined = field;
  while (node) {
    node = node.parentNode ?? (node.getRootNode?.() as ShadowRoot | undefined)?.host;
    if (node?.nodeType === 1 && inTopLayer(node as Element)) return node as Element;
  }
  return null;
}

// A custom element or an element with a shadow root may not render a light-DOM child: the host
// is raised from <html> instead (above the container all the same).
function rendersLightChildren(container: Element): boolean {
  return !container.localName.includes("-") && !container.shadowRoot;
}

/**
 * Puts the host where the person can see and click it above its field: in the field's top-layer
 * container (raised above it) when the field is in one, else on <html> as created. Returns true
 * when the host moved (what was measured of it no longer holds).
 * @example if (keepHostAboveField(host, field)) gate.placed()
 */
export function keepHostAboveField(host: HTMLElement, field: Element): boolean {
  const doc = host.ownerDocument;
  const container = topLayerOf(field);
  const parent =
    container && rendersLightChildren(container) ? container : (doc.documentElement ?? doc);
  let moved = false;
  if (host.parentNode !== parent) {
    parent.append(host);
    moved = true;
  }
  if (!container) {
    if (host.hasAttribute("popover")) {
      host.removeAttribute("popover");
      moved = true;
    }
    return moved;
  }
  if (host.getAttribute("popover") !== "manual") host.setAttribute("popover", "manual");
  if (!inTopLayer(host)) {
    try {
      host.showPopover();
      moved = true;
    } catch {
      // No popover API (or the host is hidden by an ancestor): it stays where it was put.
    }
  }
  return moved;
}
