import type { PaidResult } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";

/**
 * What a paid tool call's outcome that no answer carried (it finished after the host stopped
 * waiting, and the same call did not come back for it in time) leaves the payer to know: null
 * when nothing was charged, otherwise one sentence naming the check and the id the `receipt`
 * tool (or `presend receipt <id>`) fetches its report with. A charged outcome is never dropped
 * without this being said.
 * @example untoldOutcomeNote(outcome, "check", { address, chain: "base" })
 */
export function untoldOutcomeNote(
  outcome: PaidResult<Report | DeepReport>,
  tool: "check" | "deep",
  asked: { address: string; chain: string; from?: string },
): string | null {
  if (outcome.charged === false) return null;
  const call = `An earlier ${tool} call with ${JSON.stringify(asked)} finished after its answer was given up`;
  switch (outcome.type) {
    case "report":
      return `${call}: charged yes${outcome.signedIn ? " (by an earlier payment)" : ""}. Its report: call receipt with ${JSON.stringify({ id: outcome.settlement.transaction })} (free).`;
    case "unrecovered":
      return `${call}: charged ${outcome.charged === true ? "yes" : "unknown"}, no report yet. Its report, if it was charged: call receipt with ${JSON.stringify({ id: outcome.authorization.nonce })} (free).`;
    case "forged":
      return `${call}: charged ${outcome.charged === true ? "yes" : "unknown"}${outcome.settlement ? ` (settlement ${outcome.settlement.transaction})` : ""}, but its report did not verify: it must not be trusted.`;
  }
}
