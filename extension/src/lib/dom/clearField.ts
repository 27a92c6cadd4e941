import type { EditableField } from "./editableFieldFrom";

/**
 * Empties a field the way a person does (select all, delete), so the page's own input handlers
 * (React, Vue) see the change; setting `value` from outside would leave their state behind.
 * @example clearField(document, input)
 */
export function clearField(doc: Document, field: EditableField): void {
  field.focus();
  if (field.localName === "input" || field.localName === "textarea") {
    (field as HTMLInputElement).select();
  } else {
    const range = doc.createRange();
    range.selectNodeContents(field);
    const selection = doc.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  doc.execCommand("delete");
}
