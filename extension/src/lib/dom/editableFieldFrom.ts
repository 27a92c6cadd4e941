/** A field a person can type an address into. */
export type EditableField = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

// Input types that hold free text; passwords are never read.
const textInputTypes = new Set(["", "text", "search", "url", "tel"]);

function isElement(target: EventTarget | null | undefined): target is HTMLElement {
  return typeof (target as Node | null)?.nodeType === "number" && (target as Node).nodeType === 1;
}

/**
 * The editable field an event happened in, from its composed path (which reaches into open
 * shadow roots, where `event.target` is retargeted to the host), or null.
 * @example editableFieldFrom(event.composedPath())
 */
export function editableFieldFrom(path: readonly EventTarget[]): EditableField | null {
  for (const target of path) {
    if (!isElement(target)) continue;
    if (target.localName === "input") {
      const type = (target.getAttribute("type") ?? "").toLowerCase();
      return textInputTypes.has(type) ? target : null;
    }
    if (target.localName === "textarea") return target;
    if (target.isContentEditable || isEditableAttribute(target)) return editingHost(target);
  }
  return null;
}

function isEditableAttribute(element: HTMLElement): boolean {
  const value = element.getAttribute("contenteditable");
  return value !== null && value !== "false";
}

// Events land on the innermost node (a <b> inside the editor); the badge belongs to the host.
function editingHost(element: HTMLElement): HTMLElement {
  let host = element;
  let parent = element.parentElement;
  while (parent && (parent.isContentEditable || isEditableAttribute(parent))) {
    host = parent;
    parent = parent.parentElement;
  }
  return host;
}
