const tabbable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex], [contenteditable]:not([contenteditable="false"])';

function reachable(element: HTMLElement): boolean {
  if (element.tabIndex < 0) return false;
  const rect = element.getBoundingClientRect();
  return rect.width > 0 || rect.height > 0;
}

/**
 * The element a Tab from `field` would have reached (document order, in the field's own tree),
 * for when focus leaves the badge that sat, in tab order, right after the field.
 * @example nextTabbableAfter(document.querySelector("#to")!)?.focus()
 */
export function nextTabbableAfter(field: HTMLElement): HTMLElement | null {
  const root = field.getRootNode() as Document | ShadowRoot;
  for (const element of root.querySelectorAll<HTMLElement>(tabbable)) {
    const after = field.compareDocumentPosition(element) & 4; /* DOCUMENT_POSITION_FOLLOWING */
    if (after && !field.contains(element) && reachable(element)) return element;
  }
  return null;
}
