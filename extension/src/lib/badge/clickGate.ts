/** How long the badge must have stayed put, and been seen uncovered, before a paid click counts. */
export const settleMs = 500;

export type ClickGateInput = {
  /** The click's time (performance.now()). */
  now: number;
  /** When the badge last appeared, moved, resized or changed its content. */
  placedAt: number;
  /**
   * Whether the browser reports occlusion (IntersectionObserver v2): true, false (no IOv2: only
   * the appearance delay applies), or null (no report yet: treated as not seen).
   */
  supported: boolean | null;
  /** The latest IOv2 report: nothing covers the badge and nothing makes it transparent. */
  isVisible: boolean;
  /** Since when the badge has been reported visible without interruption (null: it is not). */
  visibleSince: number | null;
};

export type ClickDecision =
  | { allowed: true }
  | {
      allowed: false;
      /** hidden: covered, transparent or not seen yet; moved: it just appeared or moved. */
      reason: "hidden" | "moved";
      /** When the click would be allowed if nothing changes; null: not before it is seen again. */
      readyAt: number | null;
    };

/**
 * Whether a person's click on a paid button of the badge counts: the badge has stayed put for
 * `settleMs`, and (where the browser can tell) has been visible and uncovered for `settleMs`.
 * A page that lays its own element over the badge, fades it, or slides it under the cursor
 * gets the click refused.
 * @example clickAllowed({ now: 1_000, placedAt: 100, supported: true, isVisible: true, visibleSince: 200 })
 */
export function clickAllowed(input: ClickGateInput): ClickDecision {
  const { now, placedAt, supported, isVisible, visibleSince } = input;
  const placedReadyAt = placedAt + settleMs;
  // Without IOv2 only the appearance delay applies; with it, the badge must be seen uncovered.
  const seenReadyAt =
    supported === false
      ? Number.NEGATIVE_INFINITY
      : supported === true && isVisible && visibleSince !== null
        ? visibleSince + settleMs
        : null;
  const reason = now < placedReadyAt ? "moved" : "hidden";
  if (seenReadyAt === null) {
    // Covered or transparent now, or not reported yet (a badge that just appeared).
    return { allowed: false, reason: supported === null ? reason : "hidden", readyAt: null };
  }
  const readyAt = Math.max(placedReadyAt, seenReadyAt);
  return now >= readyAt ? { allowed: true } : { allowed: false, reason, readyAt };
}

/** What the badge says after refusing a click; nothing was started. */
export const refusedClickText = {
  hidden: "presend's badge was covered or hidden; click refused. Nothing was charged.",
  moved:
    "presend's badge had just appeared or moved; click refused. Nothing was charged. Click again once it stays put.",
} as const;
