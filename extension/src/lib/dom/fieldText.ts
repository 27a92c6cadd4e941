import type { EditableField } from "./editableFieldFrom";

/**
 * The text a field currently holds: the value of an input or textarea, the rendered text of an
 * editor.
 * @example fieldText(document.querySelector("input")!)
 */
export function fieldText(field: EditableField): string {
  if (field.localName === "input" || field.localName === "textarea") {
    return (field as HTMLInputElement).value;
  }
  // What the person sees: innerText leaves out text a page hid (display: none) inside the
  // editor, which textContent would read as the address.
  return field.innerText ?? field.textContent ?? "";
}
