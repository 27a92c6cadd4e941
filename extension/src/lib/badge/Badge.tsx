import type { ChainName } from "../../../../shared/chains/chains";
import type { LocalAssessment } from "../address/assessLocally";
import type { CheckOutcome, Progress } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { OutcomeView } from "../ui/OutcomeView";
import { PaidCheckControls } from "../ui/PaidCheckControls";
import { refusedClickText } from "./clickGate";

export type BadgeProps = {
  assessment: LocalAssessment;
  chain: ChainName;
  /** Where the chain came from: the dApp wallet, the person's pick, or the default (base). */
  chainSource: "wallet" | "default" | "user";
  progress: Progress | null;
  outcome: CheckOutcome | null;
  busy: boolean;
  /** A paid click would count now (the badge has stayed put and been seen uncovered). */
  clickReady: boolean;
  /** The last paid click was refused because the badge was covered, hidden or had just moved. */
  refusedClick: "hidden" | "moved" | null;
  onChainChange: (chain: ChainName) => void;
  /** Called only for a person's click (PaidCheckControls drops synthetic ones). */
  onCheck: (route: Route) => void;
  onClose: () => void;
};

const statusText = {
  valid: { label: "checksum valid", level: "ok" },
  missing: { label: "no checksum", level: "caution" },
  invalid: { label: "wrong checksum: likely a typo", level: "danger" },
  malformed: { label: "not an address", level: "danger" },
} as const;

/** The free, local verdict next to a field, with the paid checks one click away. */
export function Badge(props: BadgeProps) {
  const { assessment } = props;
  const shown = statusText[assessment.status];
  return (
    <div
      className="presend"
      data-status={assessment.status}
      data-click-ready={props.clickReady ? "true" : "false"}
    >
      <div className="row">
        <span className="brand">presend</span>
        <span className={`chip level-${shown.level}`} data-testid="checksum">
          {shown.label}
        </span>
        <button type="button" className="close" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </div>
      <div className="mono" data-testid="address">
        {assessment.input}
      </div>
      {assessment.status !== "valid" && (
        <div className="muted">{assessment.checksum.checksum.message}</div>
      )}
      {assessment.lookalikeOf && (
        <div className="alert level-danger" data-testid="lookalike">
          <strong>Danger: lookalike address.</strong> Same first and last characters as{" "}
          <span className="mono">{assessment.lookalikeOf}</span>, which you used before, but a
          different address. This is how address poisoning works: copy the address from a trusted
          source.
        </div>
      )}
      {assessment.payable && (
        <PaidCheckControls
          chain={props.chain}
          onChainChange={props.onChainChange}
          onCheck={props.onCheck}
          busy={props.busy}
        />
      )}
      {assessment.payable &&
        props.chainSource === "wallet" &&
        !props.progress &&
        !props.outcome && <div className="muted">Chain preselected from your wallet.</div>}
      {props.refusedClick && (
        <div
          className="alert level-danger"
          data-state="click-refused"
          data-code={props.refusedClick}
          data-testid="click-refused"
        >
          {refusedClickText[props.refusedClick]}
        </div>
      )}
      <OutcomeView progress={props.progress} outcome={props.outcome} />
    </div>
  );
}
