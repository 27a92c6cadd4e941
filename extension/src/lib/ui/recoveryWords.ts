import type { PendingRecovery } from "../storage/schemas";

type AttemptState = NonNullable<PendingRecovery["lastAttempt"]>["state"];

/**
 * How the last attempt to fetch a paid report is headed, and its colour.
 * @example recoveryWords("pending") // { title: "Checking the chain:", level: "caution" }
 */
export function recoveryWords(state: AttemptState): { title: string; level: string } {
  switch (state) {
    case "unknown":
      return { title: "Charged: unknown.", level: "warn" };
    case "pending":
      return { title: "Checking the chain:", level: "caution" };
    case "not_charged":
      return { title: "Nothing was charged:", level: "ok" };
    case "forged":
      return { title: "Forged report, not shown:", level: "danger" };
    case "rejected":
      return { title: "Declined:", level: "caution" };
    case "failed":
      return { title: "Could not fetch the report:", level: "warn" };
  }
}
