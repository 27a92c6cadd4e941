import { findAddressCandidate } from "../address/findAddressCandidate";
import { ancestorsOf } from "../dom/ancestorsOf";
import type { EditableField } from "../dom/editableFieldFrom";
import { fieldText } from "../dom/fieldText";
import { findReplacementField } from "../dom/findReplacementField";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { BadgeState } from "./badgeState";
import type { BadgeLifecycle } from "./createBadgeController";

// How often a shown badge re-reads its field: a page may rewrite the value (lower-casing it),
// replace the element (a re-render), or move it without any event the badge could hear.
export const followMs = 250;

export type FieldFollowerOptions = {
  win: Pick<Window, "clearInterval" | "cancelAnimationFrame">;
  ctx: Pick<BadgeLifecycle, "setInterval" | "requestAnimationFrame">;
  /** The badge shown, else null. */
  current: () => Pick<BadgeState, "field" | "ancestors" | "assessment" | "session"> | null;
  /** The page replaced the field (a re-render); this one holds the same address. */
  onReplaced: (field: EditableField, ancestors: Element[]) => void;
  /** The field or its address is gone and no paid check runs: the badge goes. */
  onGone: () => void;
  /** The field holds another address now (the page rewrote it). */
  onChanged: (field: EditableField, candidate: AddressEntry["candidate"]) => void;
  /** Same field, same address: it may have moved. */
  onUnchanged: () => void;
};

/**
 * Follows the field a badge sits beside, every `followMs` while the badge is shown: its actual
 * value, the element the page put in its place, and its place on screen. A badge whose paid
 * check runs stays, even when the field is gone. It also remembers the values the person
 * dismissed per field, so a re-read of the same value does not bring the badge back.
 * @example const follower = createFieldFollower({ win: window, ctx, current, onReplaced, onGone, onChanged, onUnchanged })
 */
export function createFieldFollower(options: FieldFollowerOptions) {
  const { win, ctx } = options;
  let interval = 0;
  const dismissed = new WeakMap<EditableField, string>();

  const follow = () => {
    const current = options.current();
    if (!current) return;
    let field = current.field;
    if (!field.isConnected) {
      const replacement = findReplacementField(current.ancestors, current.assessment.input);
      if (!replacement) {
        if (!current.session) options.onGone();
        return;
      }
      field = replacement;
      options.onReplaced(field, ancestorsOf(field));
    }
    const candidate = findAddressCandidate(fieldText(field));
    if (!candidate) {
      if (!current.session) options.onGone();
      return;
    }
    if (candidate.value !== current.assessment.input) options.onChanged(field, candidate);
    else options.onUnchanged();
  };

  // Every frame, only the value: a page that swaps the field to another address and back in
  // step with the re-read must not keep one address's verdict beside another (the full re-read,
  // with the placement, stays every followMs).
  let frame = 0;
  const watchValue = () => {
    frame = 0;
    const current = options.current();
    if (!current) return;
    if (current.field.isConnected) {
      const value = findAddressCandidate(fieldText(current.field))?.value;
      if (value !== current.assessment.input) follow();
    }
    frame = ctx.requestAnimationFrame(watchValue);
  };

  return {
    /** Re-reads the field now. */
    follow,
    /** Follows the field every `followMs` until stopped (once, however often called). */
    start() {
      if (!interval) interval = ctx.setInterval(follow, followMs);
      if (!frame) frame = ctx.requestAnimationFrame(watchValue);
    },
    stop() {
      win.clearInterval(interval);
      interval = 0;
      win.cancelAnimationFrame(frame);
      frame = 0;
    },
    /** The person closed the badge on this value of this field. */
    dismiss(field: EditableField, value: string) {
      dismissed.set(field, value);
    },
    /** Whether the person closed the badge on this value of this field. */
    dismissed(field: EditableField, value: string): boolean {
      return dismissed.get(field) === value;
    },
    /** The field was entered anew: a dismissal no longer holds. */
    forget(field: EditableField) {
      dismissed.delete(field);
    },
  };
}
