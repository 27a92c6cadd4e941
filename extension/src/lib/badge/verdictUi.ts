import type { BadgeProps } from "./BadgeCard";

/**
 * The verdict UI chunk (entrypoints/verdict-ui): the card a chip opens, with the verdict, the
 * paid checks and the recovery controls. It renders with its own Preact into the card slot.
 */
export type VerdictUi = {
  /** Renders the card into `slot` (synchronously), or unmounts it for null. */
  renderCard(slot: Element, props: BadgeProps | null): void;
};

// The isolated world's global the chunk registers on once the content script imported it.
// Page scripts live in another world and never see it.
const registryKey = "__presendVerdictUi";

type Registry = { [registryKey]?: VerdictUi };

/** Called by the chunk: makes its renderer available to the content script of its frame. */
export function registerVerdictUi(scope: object, ui: VerdictUi): void {
  (scope as Registry)[registryKey] = ui;
}

/** The chunk's renderer once it ran in this frame's isolated world, else null. */
export function registeredVerdictUi(scope: object): VerdictUi | null {
  return (scope as Registry)[registryKey] ?? null;
}
