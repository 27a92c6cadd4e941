import type { ChainName } from "@presend/shared/chains/chains";
import type { LocalAssessment } from "../address/assessLocally";
import type { EditableField } from "../dom/editableFieldFrom";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { CheckOutcome, Progress, RecoveryOutcome } from "../messaging/protocol";

/** What one badge shows: the field and its address, the chain, and the paid check's course. */
export type BadgeState = {
  field: EditableField;
  /** The field's nearest ancestors when it was seen, where a replacement is looked for. */
  ancestors: Element[];
  candidate: AddressEntry["candidate"];
  assessment: LocalAssessment;
  chain: ChainName;
  chainSource: "wallet" | "default" | "user";
  expanded: boolean;
  session: string | null;
  progress: Progress | null;
  outcome: CheckOutcome | null;
  /** The last paid click was refused (covered, hidden or just moved badge); nothing started. */
  refusedClick: "hidden" | "moved" | null;
  /** Fetching a lost report again: the click's session while under way, and how it last ended. */
  recovery: {
    session: string | null;
    result: Exclude<RecoveryOutcome, { type: "recovered" }> | null;
  };
};

const noRecovery: BadgeState["recovery"] = { session: null, result: null };

// The badge's state machine, as pure transitions: each returns the next state, or null when
// the event does not concern the state shown (another session, the same address again).

/**
 * An address entered in a field. The same address in the same field keeps everything (typing
 * after a paste, the page echoing the value: a paid result stays); a new one starts over,
 * keeping a chain the person picked, else the wallet's, else base.
 * @example const next = enterAddress(state, { field, ancestors, candidate, assessment }, "base")
 */
export function enterAddress(
  previous: BadgeState | null,
  entered: Pick<BadgeState, "field" | "ancestors" | "candidate" | "assessment">,
  walletChain: ChainName | null,
): BadgeState | null {
  if (previous?.field === entered.field && previous.assessment.input === entered.assessment.input) {
    return null;
  }
  const userChain = previous?.chainSource === "user";
  return {
    ...entered,
    chain: userChain ? previous.chain : (walletChain ?? "base"),
    chainSource: userChain ? "user" : walletChain ? "wallet" : "default",
    expanded: previous?.field === entered.field ? previous.expanded : false,
    session: null,
    progress: null,
    outcome: null,
    refusedClick: null,
    recovery: noRecovery,
  };
}

/** A check is running from its click until its outcome arrives. */
export function isChecking(state: BadgeState): boolean {
  return state.session !== null && state.outcome === null;
}

/** The page wallet's chain became known: preselected unless the person picked one or a check runs. */
export function walletChainKnown(
  state: BadgeState,
  walletChain: ChainName | null,
): BadgeState | null {
  // A finished check keeps its session: only a running one holds the chain (the wallet switches
  // to Base to sign and back). After it, a verdict for Base does not follow a dApp now on another chain.
  if (state.chainSource === "user" || walletChain === null || isChecking(state)) return null;
  if (state.chain === walletChain && state.chainSource === "wallet") return null;
  return { ...state, chain: walletChain, chainSource: "wallet" };
}

/** A paid click started a check under `session`: the card opens on its progress. */
export function beginCheck(state: BadgeState, session: string): BadgeState {
  return {
    ...state,
    session,
    expanded: true,
    progress: { step: "requesting" },
    outcome: null,
    refusedClick: null,
    recovery: noRecovery,
  };
}

export function checkProgress(
  state: BadgeState,
  session: string,
  progress: Progress,
): BadgeState | null {
  return state.session === session ? { ...state, progress } : null;
}

export function finishCheck(
  state: BadgeState,
  session: string,
  outcome: CheckOutcome,
): BadgeState | null {
  return state.session === session ? { ...state, outcome, progress: null } : null;
}

/** "Fetch my report" was clicked: the last result stays shown while the wallet is asked. */
export function beginRecovery(state: BadgeState, session: string): BadgeState {
  return { ...state, recovery: { session, result: state.recovery.result } };
}

/** A recovered report becomes the verdict; any other ending is shown beside "Try again". */
export function finishRecovery(
  state: BadgeState,
  session: string,
  outcome: RecoveryOutcome,
): BadgeState | null {
  if (state.recovery.session !== session) return null;
  if (outcome.type === "recovered") {
    return { ...state, outcome: { type: "report", entry: outcome.entry }, recovery: noRecovery };
  }
  return { ...state, recovery: { session: null, result: outcome } };
}
