import type { ChainFacts, DeepVerdict } from "../api/report";
import { crossChainFindings } from "./crossChainFindings";
import { detectWrongNetwork } from "./detectWrongNetwork";
import { findTokenMismatches } from "./findTokenMismatches";
import { historyAndListFindings, type SenderContext } from "./historyAndListFindings";
import { receiveOnlyPaidBefore } from "./receiveOnlyPaidBefore";
import { summarizeFindings } from "./summarizeFindings";
import { summarizeGas } from "./summarizeGas";
import { type TargetInput, targetFindings } from "./targetFindings";

export type DeepInput = TargetInput &
  SenderContext & {
    /** Facts on the other chains (four in a deep check); an entry for the target is ignored. */
    others: readonly ChainFacts[];
    /**
     * For a Safe elsewhere and no code here: whether the singleton it runs has code on the target
     * chain, by lowercase address (what decides if its owners can create it here).
     */
    singletonsHere?: Readonly<Record<string, boolean>>;
  };

/**
 * The deep verdict: the single-chain rules plus wrong-network and token-mismatch across chains.
 * @example decideDeepVerdict({ address, checksum, target: baseFacts, others }).wrongNetwork // { flagged: true, activeOn: ["arbitrum"] }
 */
export function decideDeepVerdict(input: DeepInput): DeepVerdict {
  const { address, target } = input;
  const others = input.others.filter((facts) => facts.name !== target.name);
  const wrongNetwork = detectWrongNetwork(target, others);
  const tokenMismatch = findTokenMismatches({ address, target, others });
  const findings = [
    ...targetFindings(input),
    ...crossChainFindings({
      address,
      target,
      others,
      wrongNetwork,
      tokenMismatch,
      ...(input.singletonsHere && { singletonsHere: input.singletonsHere }),
    }),
    ...historyAndListFindings({ ...input, others }),
  ];
  const { level, headline, next, reasons } = summarizeFindings(
    receiveOnlyPaidBefore(findings, target.name),
  );
  return {
    level,
    headline,
    next,
    gas: summarizeGas(target),
    reasons,
    tokenMismatch,
    wrongNetwork,
  };
}
