import { type AddressCandidate, findAddressCandidate } from "../address/findAddressCandidate";
import type { BadgeLifecycle } from "../badge/createBadgeController";
import { type EditableField, editableFieldFrom } from "./editableFieldFrom";
import { fieldInSight } from "./fieldInSight";
import { fieldText } from "./fieldText";

export type ScriptedValue = { field: EditableField; candidate: AddressCandidate };

// Interactions after which a page script may have filled a field (a "paste" button, an address
// book pick, a QR scan result). Re-read right after, and once more for pages that fetch first.
const interactions = ["click", "keyup", "change", "focusin"] as const;
const rereadAfterMs = [0, 400];

/**
 * Reports fields whose value a page script changed to an address: no input event fires for
 * that, so the fields of the document are re-read shortly after each interaction (never on a
 * timer of their own). Read-only and disabled fields are display, not entry, and are skipped;
 * what fields held when the page finished loading is the page's own, not a script's answer, and
 * is reported only once the person is in that field.
 * At most one field is reported per re-read: the focused one, else the last that changed.
 * A field the person cannot see (`inSight`) is not reported, and is read again until it is.
 * @example watchScriptedValues(document, ctx, (value) => badge.show({ ...value, ancestors: ancestorsOf(value.field), trigger: "script", at: performance.now() }))
 */
export function watchScriptedValues(
  doc: Document,
  ctx: Pick<BadgeLifecycle, "addEventListener" | "setTimeout">,
  onValue: (value: ScriptedValue) => void,
  inSight: (field: EditableField) => boolean = fieldInSight,
): void {
  const seen = new WeakMap<Element, string>();
  // Fields still holding what the page loaded with, not yet shown: told once the person is in one.
  const untouchedPresets = new WeakSet<Element>();
  let pending = false;
  const reread = () => {
    pending = false;
    // One badge per frame: of the fields that changed to an address, the one the person is in,
    // else the last in the page. Thousands filled at once cost one badge, not thousands.
    let chosen: ScriptedValue | null = null;
    const focused = doc.activeElement;
    for (const element of doc.querySelectorAll<HTMLInputElement>("input, textarea")) {
      if (element.readOnly || element.disabled || element.hasAttribute("readonly")) continue;
      const text = element.value;
      const presetEntered = element === focused && untouchedPresets.has(element);
      if (seen.get(element) === text && !presetEntered) continue;
      untouchedPresets.delete(element);
      seen.set(element, text);
      if (chosen && chosen.field === focused) continue;
      const field = editableFieldFrom([element]);
      const candidate = field && findAddressCandidate(fieldText(field));
      if (!field || !candidate) continue;
      // A hidden field a script fills would take the badge from the field the person is in
      // (every click, if the script keeps at it); once shown (a form's next step), it is news.
      if (!inSight(field)) seen.delete(element);
      else chosen = { field, candidate };
    }
    if (chosen) onValue(chosen);
  };
  // The values the page was built with (in its HTML, or put there by its scripts as it loaded:
  // a preset fee token, a default spender) are not news on a click elsewhere: without this, the
  // first click anywhere would badge every prefilled field the person never touched as if a
  // script had just filled it. A preset is still what will be sent (a payment link's recipient),
  // so it is shown once the person steps into its field.
  const baseline = () => {
    for (const element of doc.querySelectorAll<HTMLInputElement>("input, textarea")) {
      if (seen.has(element)) continue;
      seen.set(element, element.value);
      untouchedPresets.add(element);
    }
  };
  if (doc.readyState === "complete") baseline();
  else if (doc.defaultView) ctx.addEventListener(doc.defaultView, "load", baseline);
  const schedule = () => {
    if (pending) return;
    pending = true;
    for (const delay of rereadAfterMs) ctx.setTimeout(reread, delay);
  };
  for (const type of interactions) ctx.addEventListener(doc, type, schedule, { capture: true });
}
