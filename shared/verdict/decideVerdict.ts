import type { Verdict } from "../api/report";
import { historyAndListFindings, type SenderContext } from "./historyAndListFindings";
import { receiveOnlyPaidBefore } from "./receiveOnlyPaidBefore";
import { summarizeFindings } from "./summarizeFindings";
import { summarizeGas } from "./summarizeGas";
import { type TargetInput, targetFindings } from "./targetFindings";

/**
 * The single-chain verdict: level, headline, next action, gas and reasons for one chain's facts.
 * @example decideVerdict({ address, checksum, target: baseFacts }).level // "caution"
 */
export function decideVerdict(input: TargetInput & SenderContext): Verdict {
  const findings = [...targetFindings(input), ...historyAndListFindings({ ...input, others: [] })];
  const { level, headline, next, reasons } = summarizeFindings(
    receiveOnlyPaidBefore(findings, input.target.name),
  );
  return { level, headline, next, gas: summarizeGas(input.target), reasons };
}
