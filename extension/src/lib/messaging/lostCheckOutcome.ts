import type { ChainName } from "@presend/shared/chains/chains";
import type { HistoryEntry, PendingRecovery } from "../storage/schemas";
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

/** The same, when nothing of this click's payment had left: it stopped before paying. */
export const backgroundStoppedUnpaidMessage =
  "presend's background stopped before this check paid anything. Check again to pay for it.";

/** A click whose `check.start` failed: what it asked for, and when (Date.now()). */
export type LostClick = { address: string; chain: ChainName; at: number };

/** What the background wrote to storage, read once `check.start` failed. */
export type LeftBehind = {
  recoveries: readonly PendingRecovery[];
  history: readonly HistoryEntry[];
};

/**
 * The outcome to show when `check.start` itself failed (the background threw or never answered),
 * from what the background wrote for this click before it ended. A payment is written to the
 * pending recoveries before it leaves and kept until its report is filed in the history or the
 * answer proves no charge (paidCheckOutcome files first, then forgets): so a recovery means the
 * charge is unknown and its report can be fetched; a report means the check ended paid; neither
 * means no payment of this click left, and nothing was charged (the stop came while the wallet
 * asked, or before). An error the background answered with (a MessageError) keeps its words.
 * @example messenger.send("check.start", request).then(show, async (error) => show(lostCheckOutcome(error, await read(), click)))
 */
export function lostCheckOutcome(error: unknown, left: LeftBehind, click: LostClick): CheckOutcome {
  const ours = (address: string, chain: ChainName, at: string) =>
    address.toLowerCase() === click.address.toLowerCase() &&
    chain === click.chain &&
    Date.parse(at) >= click.at - 1_000;
  const signed = left.recoveries.find((r) => ours(r.address, r.chain, r.sentAt));
  const said = error instanceof MessageError ? error.message : undefined;
  if (signed) {
    // A payment signed for this click was written down: its report can still be fetched.
    return {
      type: "failed",
      message: said ?? backgroundStoppedMessage,
      charged: "unknown",
      recoveryId: signed.id,
    };
  }
  const filed = left.history.find((e) => ours(e.address, e.chain, e.checkedAt));
  if (filed) return { type: "report", entry: filed };
  if (said !== undefined) return { type: "failed", message: said, charged: false };
  return {
    type: "failed",
    message: backgroundStoppedUnpaidMessage,
    charged: false,
    code: "background_stopped",
  };
}
