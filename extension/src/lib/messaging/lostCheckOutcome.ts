import { MessageError } from "./MessageError";
import type { CheckOutcome } from "./protocol";

/**
 * What the person reads when `check.start` got no answer at all: the browser's messaging failed,
 * which in practice means the background's service worker was stopped (Chrome stops workers, and
 * ends them on an update) while it paid. The browser's own words for that ("A listener indicated
 * an asynchronous response by returning true, but the message channel closed …") were shown as
 * they were, beside "Fetch my report".
 */
export const backgroundStoppedMessage =
  "presend's background stopped before this check's answer came back.";

/**
 * The outcome to show when `check.start` itself failed (the background threw or never answered):
 * a payment may have gone out, so whether anything was charged is unknown. An error the
 * background answered with (a MessageError) keeps its words.
 * @example messenger.send("check.start", request).then(show, (error) => show(lostCheckOutcome(error)))
 */
export function lostCheckOutcome(
  error: unknown,
  recoveryId?: string,
): Extract<CheckOutcome, { type: "failed" }> {
  return {
    type: "failed",
    message: error instanceof MessageError ? error.message : backgroundStoppedMessage,
    charged: "unknown",
    // A payment signed for this click was written down: its report can still be fetched.
    ...(recoveryId !== undefined && { recoveryId }),
  };
}
