// What a Tab can land on, enabled; a focus target a script sets (tabindex -1) is none. A
// disclosure's summary is a control of its own ("Details", "Address", "Check again").
const tabbable =
  "a[href], button:not([disabled]), input:not([disabled]):not([type='hidden']), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

// A control inside a closed <details> is not drawn, so Tab skips it: only the summary of each
// closed disclosure around it shows.
function shownByDisclosures(element: Element): boolean {
  for (
    let details = element.closest("details");
    details;
    details = details.parentElement?.closest("details") ?? null
  ) {
    if (details.hasAttribute("open")) continue;
    const summary = [...details.children].find((child) => child.localName === "summary");
    if (!summary?.contains(element)) return false;
  }
  return true;
}

/**
 * The controls under `root` a Tab reaches, in document order: enabled form controls, links,
 * disclosure summaries and elements with a tabindex of 0 or more, without those a closed
 * disclosure hides.
 * @example tabbableIn(shadowRoot).at(-1)?.focus()
 */
export function tabbableIn(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(tabbable)].filter(
    (element) =>
      shownByDisclosures(element) &&
      // Only a disclosure's first summary is its toggle; another is plain content.
      (element.localName !== "summary" ||
        element.parentElement?.localName !== "details" ||
        [...element.parentElement.children].find((c) => c.localName === "summary") === element),
  );
}
