import { type AddressCandidate, findAddressCandidate } from "../address/findAddressCandidate";
import { ancestorsOf } from "./ancestorsOf";
import { type EditableField, editableFieldFrom } from "./editableFieldFrom";
import { fieldInSight } from "./fieldInSight";
import { fieldText } from "./fieldText";

export type AddressEntry = {
  field: EditableField;
  /**
   * The field's ancestors when the address arrived. The badge may show later (its code still
   * loading), after the page replaced the field (a chip): where to look for the replacement.
   */
  ancestors: readonly Element[];
  candidate: AddressCandidate;
  /** script: the page's own script set the value (a paste button, an address book). */
  trigger: "paste" | "input" | "script";
  /** performance.now() when the event arrived, for the paste-to-chip measurement. */
  at: number;
};

export type WatchOptions = {
  onEntry: (entry: AddressEntry) => void;
  /** The field no longer holds an address (cleared or edited away). */
  onClear: (field: EditableField) => void;
  now: () => number;
  /**
   * Whether the person can see the field. A page script's own paste or input event in a field
   * out of sight is not an entry: it would take the badge from the field the person is using.
   */
  inSight?: (field: EditableField) => boolean;
};

/**
 * Listens on `doc` for pastes and typing in any editable field, including fields inside open
 * shadow roots and fields added later: listeners sit on the document in the capture phase and
 * read the composed path, so no per-field wiring is needed. Returns the unsubscribe function.
 * @example const stop = watchAddressEntry(document, { onEntry, onClear, now: () => performance.now() })
 */
export function watchAddressEntry(doc: Document, options: WatchOptions): () => void {
  const inSight = options.inSight ?? fieldInSight;
  // The person's own events are entries wherever they land; a page's only in a field in sight.
  const entered = (event: Event): EditableField | null => {
    const field = editableFieldFrom(event.composedPath());
    return field && (event.isTrusted || inSight(field)) ? field : null;
  };
  const onPaste = (event: Event) => {
    const at = options.now();
    const field = entered(event);
    if (!field) return;
    // The clipboard text is known before the page inserts it: the badge can show at once.
    const pasted = (event as ClipboardEvent).clipboardData?.getData("text/plain") ?? "";
    const candidate = findAddressCandidate(pasted);
    if (candidate) {
      options.onEntry({ field, ancestors: ancestorsOf(field), candidate, trigger: "paste", at });
    }
  };
  const onInput = (event: Event) => {
    const at = options.now();
    const field = entered(event);
    if (!field) return;
    const candidate = findAddressCandidate(fieldText(field));
    if (candidate) {
      options.onEntry({ field, ancestors: ancestorsOf(field), candidate, trigger: "input", at });
    } else options.onClear(field);
  };
  // Capture phase: a page that stops propagation in its own handlers cannot hide the event.
  doc.addEventListener("paste", onPaste, true);
  doc.addEventListener("input", onInput, true);
  return () => {
    doc.removeEventListener("paste", onPaste, true);
    doc.removeEventListener("input", onInput, true);
  };
}
