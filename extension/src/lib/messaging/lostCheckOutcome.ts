import type { CheckOutcome } from "./protocol";

/**
 * The outcome to show when `check.start` itself failed (the background threw or never answered):
 * a payment may have gone out, so whether anything was charged is unknown.
 * @example messenger.send("check.start", request).then(show, (error) => show(lostCheckOutcome(error)))
 */
export function lostCheckOutcome(
  error: unknown,
  recoveryId?: string,
): Extract<CheckOutcome, { type: "failed" }> {
  return {
    type: "failed",
    message: error instanceof Error ? error.message : String(error),
    charged: "unknown",
    // A payment signed for this click was written down: its report can still be fetched.
    ...(recoveryId !== undefined && { recoveryId }),
  };
}
