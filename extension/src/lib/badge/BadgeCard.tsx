import type { ChainName } from "@presend/shared/chains/chains";
import { type LocalAssessment, specialAddressWarning } from "../address/assessLocally";
import type { CheckOutcome, Progress, RecoveryOutcome, WalletInfo } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { isPaidFor } from "../ui/isPaidFor";
import { OutcomeView } from "../ui/OutcomeView";
import { PaidCheckControls } from "../ui/PaidCheckControls";
import { levelWords } from "../ui/words";
import { refusedClickText } from "./clickGate";

export type BadgeProps = {
  assessment: LocalAssessment;
  chain: ChainName;
  /** Where the chain came from: the dApp wallet, the person's pick, or the default (base). */
  chainSource: "wallet" | "default" | "user";
  progress: Progress | null;
  outcome: CheckOutcome | null;
  busy: boolean;
  /** The chip (false) or the card it opens (true). */
  expanded: boolean;
  /** The wallet of this page or frame, once known (null: not known yet). */
  wallet: WalletInfo | null;
  /** The badge lives in a frame, not in the tab's top page. */
  inFrame: boolean;
  /** A paid click would count now (the badge has stayed put and been seen uncovered). */
  clickReady: boolean;
  /** The last paid click was refused because the badge was covered, hidden or had just moved. */
  refusedClick: "hidden" | "moved" | null;
  onChainChange: (chain: ChainName) => void;
  /** Called only for a person's click (PaidCheckControls drops synthetic ones). */
  onCheck: (route: Route) => void;
  onToggle: () => void;
  /** The person dismissed the badge for this value. */
  onClose: () => void;
  /** Fetching the report of a payment whose answer was lost: under way, or how it last ended. */
  recovery: { busy: boolean; result: Exclude<RecoveryOutcome, { type: "recovered" }> | null };
  /** "Fetch my report" (a person's click only; RecoveryControls drops synthetic ones). */
  onFetchReport: () => void;
};

const checksumWords = {
  valid: "Checksum OK",
  missing: "No checksum",
  invalid: "Wrong checksum: likely a typo",
  malformed: "Not an address",
} as const;

function walletNotice(props: BadgeProps): string | null {
  if (!props.assessment.payable || props.wallet?.available !== false) return null;
  return props.inFrame
    ? "This form is in a frame with no wallet of its own, so presend cannot pay from here. Open the frame's site in its own tab, or paste the address into presend's toolbar popup on your dApp's tab."
    : "No wallet on this page to pay for a check. Open your dApp's page, or paste the address into presend's toolbar popup there.";
}

// A wallet the site is not connected to answers no account until the person agrees: the paid
// click asks it to connect first, which the person can refuse.
function connectNotice(props: BadgeProps): string | null {
  const { wallet } = props;
  if (!props.assessment.payable || !wallet?.available || wallet.address) return null;
  return `Your wallet${wallet.name ? ` (${wallet.name})` : ""} is not connected to this site. A paid check asks it to connect first; you can refuse, and nothing is charged.`;
}

/**
 * The card a chip opens: the details, the paid checks and their result. It lives in the verdict
 * UI chunk, which a page loads only once an address was entered in it.
 */
export function BadgeCard(props: BadgeProps) {
  const { assessment } = props;
  const notice = walletNotice(props);
  const paidFor = isPaidFor(props.outcome);
  const short = `${assessment.input.slice(0, 6)}…${assessment.input.slice(-4)}`;
  return (
    <section
      className="card"
      data-testid="card"
      role="dialog"
      aria-label={`presend check of ${short}`}
    >
      <div className="card-head">
        <span className="brand">presend</span>
        <span className={`pill level-${assessment.level}`} data-testid="checksum" role="status">
          {assessment.label === checksumWords[assessment.status]
            ? assessment.label
            : `${levelWords[assessment.level]}: ${assessment.label}`}
        </span>
        <button
          type="button"
          className="icon-button"
          data-action="collapse"
          aria-label="Collapse to the chip"
          aria-expanded="true"
          onClick={props.onToggle}
        >
          ▾
        </button>
        <button
          type="button"
          className="icon-button"
          data-action="close"
          aria-label="Dismiss presend for this address"
          onClick={props.onClose}
        >
          ×
        </button>
      </div>
      <div className="card-body" data-testid="card-body">
        <div className="mono" data-testid="address" style={{ marginTop: 8 }}>
          {assessment.input}
        </div>
        <div className="muted" data-testid="checksum-detail">
          {assessment.checksum.checksum.message}
        </div>
        {assessment.special && (
          <div
            className="alert level-danger"
            data-testid="special"
            data-kind={assessment.special.kind}
          >
            <strong>Danger: </strong>
            {specialAddressWarning(assessment.special)}
          </div>
        )}
        {assessment.lookalikeOf && (
          <div className="alert level-danger" data-testid="lookalike">
            <strong>Danger: lookalike address.</strong> Same first and last characters as{" "}
            <span className="mono">{assessment.lookalikeOf}</span>, which you used before, but a
            different address. This is how address poisoning works: copy the address from a trusted
            source.
          </div>
        )}
        {notice && (
          <div className="notice" data-testid="wallet-notice">
            {notice}
          </div>
        )}
        {!paidFor && connectNotice(props) && (
          <div className="notice" data-testid="wallet-connect">
            {connectNotice(props)}
          </div>
        )}
        {paidFor && (
          <OutcomeView
            progress={props.progress}
            outcome={props.outcome}
            recovery={{ ...props.recovery, onFetch: props.onFetchReport }}
          />
        )}
        {assessment.payable && (
          <PaidCheckControls
            chain={props.chain}
            onChainChange={props.onChainChange}
            onCheck={props.onCheck}
            busy={props.busy}
            disabled={notice !== null}
            quiet={assessment.level === "danger"}
            paidFor={paidFor}
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
        {!paidFor && <OutcomeView progress={props.progress} outcome={props.outcome} />}
      </div>
    </section>
  );
}
