import { MessageError } from "../messaging/MessageError";
import type { ResponseOf } from "../messaging/protocol";

/**
 * What the popup says when "Close the channel" got no answer: the background stopped (Chrome
 * stops its service worker) while the refund was on its way, so whether the server made it is
 * not known. The browser's own words ("A listener indicated an asynchronous response by
 * returning true, but the message channel closed …") were shown as they were. Closing again
 * settles it: the rest comes back, or the server says the channel is already closed.
 */
export const backgroundStoppedWhileClosingMessage =
  "presend's background stopped while closing the channel, so whether the rest was sent back is not known here. Close again: it sends back what is left, or says the channel is already closed.";

/**
 * The outcome of a `channel.close` that failed: an error the background answered with (a
 * MessageError) keeps its words; any other (no answer at all) is the background stopping.
 * @example messenger.send("channel.close", { tabId }).then(show, (error) => show(lostCloseOutcome(error)))
 */
export function lostCloseOutcome(error: unknown): ResponseOf<"channel.close"> {
  return {
    type: "failed",
    message: error instanceof MessageError ? error.message : backgroundStoppedWhileClosingMessage,
  };
}
