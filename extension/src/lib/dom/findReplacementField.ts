import { type EditableField, editableFieldFrom } from "./editableFieldFrom";
import { fieldText } from "./fieldText";

/**
 * Where a field's address went after the page replaced the field (a re-render): the editable
 * field, or else the smallest element (an address "chip"), holding `address` inside the
 * nearest of the field's former `ancestors` (innermost first) that is still in the page.
 * @example findReplacementField([row, form], "0xd8dA…6045") // the new <input> or <span>
 */
export function findReplacementField(
  ancestors: readonly Element[],
  address: string,
): EditableField | null {
  const scope = ancestors.find((element) => element.isConnected);
  return scope ? holder(scope, address.toLowerCase()) : null;
}

function holder(scope: Element, wanted: string): EditableField | null {
  for (const candidate of scope.querySelectorAll<HTMLElement>(
    "input, textarea, [contenteditable]",
  )) {
    const field = editableFieldFrom([candidate]);
    if (field && fieldText(field).toLowerCase().includes(wanted)) return field;
  }
  // Not editable any more: the page shows the address as text (a chip, a pill).
  const walker = scope.ownerDocument.createTreeWalker(scope, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if ((node.nodeValue ?? "").toLowerCase().includes(wanted) && node.parentElement) {
      return node.parentElement;
    }
  }
  return null;
}
