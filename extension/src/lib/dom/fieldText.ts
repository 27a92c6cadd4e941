import type { EditableField } from "./editableFieldFrom";

/**
 * The text a field currently holds: the value of an input or textarea, the text of an editor.
 * @example fieldText(document.querySelector("input")!)
 */
export function fieldText(field: EditableField): string {
  if (field.localName === "input" || field.localName === "textarea") {
    return (field as HTMLInputElement).value;
  }
  return field.textContent ?? "";
}
