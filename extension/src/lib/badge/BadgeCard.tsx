import { visibleEnds } from "@presend/shared/address/visibleEnds";
import type { ChainName } from "@presend/shared/chains/chains";
import { chains } from "@presend/shared/chains/chains";
import { Fragment, type ReactNode, useEffect, useMemo, useRef } from "react";
import { type LocalAssessment, specialAddressWarning } from "../address/assessLocally";
import type { CheckOutcome, Progress, RecoveryOutcome, WalletInfo } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { ageInWords } from "../ui/ageInWords";
import { ChannelBalanceLine, useChannelBalances } from "../ui/ChannelBalanceLine";
import { isPaidFor } from "../ui/isPaidFor";
import { OutcomeView } from "../ui/OutcomeView";
import { PaidCheckControls } from "../ui/PaidCheckControls";
import { useApiOrigin } from "../ui/useApiOrigin";
import { decisionWords } from "../ui/words";
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
  /**
   * The page wallet's node reports contract code at the address, on this chain (its name): a
   * free warning. Null when it does not, was not asked, or the field asks for a contract.
   */
  contractOn: string | null;
  /** The last paid click was refused because the badge was covered, hidden or had just moved. */
  refusedClick: "hidden" | "moved" | null;
  onChainChange: (chain: ChainName) => void;
  /** Called only for a person's click (PaidCheckControls drops synthetic ones). */
  onCheck: (route: Route) => void;
  onToggle: () => void;
  /** The person dismissed the badge for this value. */
  onClose: () => void;
  /** "Remove the address": empties the field the address is in (a person's decision). */
  onClearField: () => void;
  /** Stops waiting for the wallet during a paid check (nothing signed yet: nothing charged). */
  onCancel: () => void;
  /** Opens the extension's settings (from an error they can fix). */
  onOpenSettings: () => void;
  /** Fetching the report of a payment whose answer was lost: under way, or how it last ended. */
  recovery: { busy: boolean; result: Exclude<RecoveryOutcome, { type: "recovered" }> | null };
  /** "Fetch my report" (a person's click only; RecoveryControls drops synthetic ones). */
  onFetchReport: () => void;
  /** The site (hostname) the badge is on, for "Off on this site". */
  site: string;
  /** Turns presend off on this site (kept in the settings, undone there). */
  onTurnOffSite: () => void;
  /** Moves the details into the browser's side panel (absent where there is none, and in it). */
  onOpenPanel?: () => void;
  /** The card is drawn in the side panel, not in the page: no chip to collapse to. */
  inPanel?: boolean;
};

function walletNotice(props: BadgeProps): string | null {
  if (!props.assessment.payable || props.wallet?.available !== false) return null;
  return props.inFrame
    ? "This form is in a frame with no wallet of its own, so presend cannot pay from here. Open the frame's site in its own tab, or paste the address into presend's toolbar popup on your dApp's tab."
    : "No wallet on this page to pay for a check. Open your dApp's page, or paste the address into presend's toolbar popup there.";
}

// A wallet's name is the page's to set (EIP-6963), in any script and with any bidi control: each
// is isolated (<bdi>), so a right-to-left name or a stray override stays inside its own words and
// never reorders the card's sentence around it.
const walletName = (name: string) => <bdi data-testid="wallet-name">{name}</bdi>;

// A wallet the site is not connected to answers no account until the person agrees: the paid
// click asks it to connect first, which the person can refuse.
function connectNotice(props: BadgeProps): ReactNode {
  const { wallet } = props;
  if (!props.assessment.payable || !wallet?.available || wallet.address) return null;
  return (
    <>
      Your wallet{wallet.name && <> ({walletName(wallet.name)})</>} is not connected to this site. A
      paid check asks it to connect first; you can refuse, and nothing is charged.
      {wallet.others.length > 0 && (
        <>
          {" "}
          To pay with {anyOf(wallet.others)} instead, connect this site with it, using the site's
          own button.
        </>
      )}
    </>
  );
}

// With several wallets in the page, the one connected to the site pays: the card names it, as the
// person may expect another.
function payingWallet(props: BadgeProps): ReactNode {
  const { wallet } = props;
  if (!props.assessment.payable || !wallet?.address || wallet.others.length === 0) return null;
  return (
    <>
      Checks are paid with {wallet.name ? walletName(wallet.name) : "your wallet"}, the wallet this
      site is connected to.
    </>
  );
}

// "A, B or C", each name isolated; a part is keyed by where it starts in the sentence.
function anyOf(names: readonly string[]): ReactNode {
  let at = 0;
  return new Intl.ListFormat("en", { type: "disjunction" }).formatToParts(names).map((part) => {
    const start = at;
    at += part.value.length;
    return part.type === "element" ? (
      <Fragment key={start}>{walletName(part.value)}</Fragment>
    ) : (
      part.value
    );
  });
}

/** What the free, local check found, as a decision: the first thing the card says. */
function LocalDecision(props: BadgeProps) {
  const { assessment } = props;
  const where = chains[props.chain].label;
  if (assessment.special || assessment.lookalikeOf || assessment.level === "danger") {
    return (
      <div className="decision level-danger" data-testid="local-decision" data-level="danger">
        <div className="decision-title">{decisionWords.danger}</div>
        {assessment.special && (
          <div data-testid="special" data-kind={assessment.special.kind}>
            {specialAddressWarning(assessment.special)}
          </div>
        )}
        {assessment.lookalikeOf && (
          <div data-testid="lookalike">
            <strong>A lookalike address.</strong> It starts and ends like{" "}
            <span className="mono">{assessment.lookalikeOf}</span>, which you used before, but it is
            a different address. This is how address poisoning works: copy the address from a
            trusted source.
          </div>
        )}
        {!assessment.special && !assessment.lookalikeOf && (
          <div data-testid="typo">{assessment.checksum.checksum.message}</div>
        )}
      </div>
    );
  }
  if (props.contractOn) {
    return (
      <div className="decision level-warn" data-testid="local-decision" data-level="warn">
        <div className="decision-title">{decisionWords.warn}</div>
        <div data-testid="free-contract">
          Your wallet reports that this address is a contract on {props.contractOn}, not a plain
          wallet. Funds sent to a contract that is not a wallet can be lost. A check says what kind
          of contract it is.
        </div>
      </div>
    );
  }
  if (assessment.level === "caution") {
    return (
      <div className="decision level-caution" data-testid="local-decision" data-level="caution">
        <div className="decision-title">{decisionWords.caution}</div>
        <div>
          This address has no checksum, so a typo in it cannot be detected. Copy it from the
          recipient again, or run a check.
        </div>
      </div>
    );
  }
  return (
    <div className="decision level-neutral" data-testid="local-decision" data-level="neutral">
      <div className="decision-title">Not checked yet</div>
      {assessment.contractField ? (
        <div data-testid="contract-field">
          This field asks for a token or contract address, so presend does not warn that it is a
          contract. The address is typed correctly (its checksum is correct).
        </div>
      ) : (
        <div>
          The address is typed correctly (its checksum is correct). Whether it is a wallet that can
          receive on {where} takes a check.
        </div>
      )}
    </div>
  );
}

/**
 * Scrolls `scroller` (the card's body) the least that shows `element` whole above its bottom
 * padding, or its top when it is taller than that. Never scrollIntoView: that would scroll the
 * page around the card too.
 */
function revealWithin(scroller: Element, element: Element): void {
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const bottom = view.bottom - Number.parseFloat(getComputedStyle(scroller).paddingBottom || "0");
  if (box.top < view.top) scroller.scrollTop -= view.top - box.top;
  else if (box.bottom > bottom) {
    scroller.scrollTop += Math.min(box.bottom - bottom, box.top - view.top);
  }
}

/**
 * The card a chip opens, verdict first: the decision in the verdict's colour (or what the free
 * check found, neutral when nothing is known yet), the decision buttons, then the paid checks
 * and the details. It lives in the verdict UI chunk, which a page loads only once an address
 * was entered in it.
 */
export function BadgeCard(props: BadgeProps) {
  const { assessment, outcome } = props;
  const notice = walletNotice(props);
  const connect = connectNotice(props);
  const paying = payingWallet(props);
  const paidFor = isPaidFor(outcome);
  const report = outcome?.type === "report" ? outcome.entry.report : null;
  const localDanger = assessment.level === "danger";
  const short = visibleEnds(assessment.input);
  // A new result opens at its top: the decision is the first thing seen, wherever the card was
  // scrolled to reach the button that asked for it.
  // Keyed by what the result says, not by the object: the side panel is sent a new copy of the
  // same result whenever the page redraws its chip, and jumped back to the top under the reader.
  const body = useRef<HTMLDivElement>(null);
  const outcomeKey = useMemo(() => (outcome ? JSON.stringify(outcome) : null), [outcome]);
  useEffect(() => {
    if (outcomeKey !== null && body.current) body.current.scrollTop = 0;
  }, [outcomeKey]);
  // A check under way shows above the buttons that started it: in a card scrolled down to them
  // (a short window, a zoomed or narrow side panel) the step, and its Cancel, come into view.
  const step = props.progress?.step;
  useEffect(() => {
    const scroller = body.current;
    const shown = step && scroller?.querySelector(`[data-state="${step}"]`);
    if (scroller && shown) revealWithin(scroller, shown);
  }, [step]);
  const dangerous = localDanger || report?.verdict.level === "danger";
  const channels = useChannelBalances();
  const apiOrigin = useApiOrigin();
  const actions = (
    <>
      {dangerous && (
        <button
          type="button"
          className="primary danger"
          data-action="clear-field"
          onClick={props.onClearField}
        >
          Remove the address
        </button>
      )}
      {report && !dangerous && (
        <button type="button" className="primary" data-action="done" onClick={props.onToggle}>
          Done
        </button>
      )}
      {outcome?.type === "report" && (
        <span className="muted" data-testid="verdict-age">
          {`Checked on ${chains[outcome.entry.chain].label} ${ageInWords(outcome.entry.checkedAt, Date.now())}${outcome.entry.route === "deep" ? " (deep check)" : ""}`}
        </span>
      )}
    </>
  );
  return (
    <section
      className="card"
      data-testid="card"
      role="dialog"
      aria-label={`presend check of ${short}`}
      // Where the focus waits when the control that had it goes (createBadgeRenderer).
      tabIndex={-1}
    >
      <div className="card-head">
        <span className="brand">presend</span>
        <span className="mono muted" data-testid="short-address">
          {short}
        </span>
        {!props.inPanel && (
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
        )}
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
      <div className="card-body" data-testid="card-body" ref={body}>
        {/* A paid verdict knows what the free check knew, except a lookalike of the person's own history. */}
        {(!report || assessment.lookalikeOf) && <LocalDecision {...props} />}
        {!report && localDanger && <div className="row">{actions}</div>}
        {notice && (
          <div className="notice" data-testid="wallet-notice">
            {notice}
          </div>
        )}
        {!paidFor && connect && (
          <div className="notice" data-testid="wallet-connect">
            {connect}
          </div>
        )}
        {!paidFor && paying && (
          <div className="muted" data-testid="paying-wallet">
            {paying}
          </div>
        )}
        {paidFor && (
          <OutcomeView
            progress={props.progress}
            outcome={outcome}
            recovery={{ ...props.recovery, onFetch: props.onFetchReport }}
            actions={actions}
            localDanger={localDanger}
          />
        )}
        {props.refusedClick && (
          <div
            className="alert level-caution"
            data-state="click-refused"
            data-code={props.refusedClick}
            data-testid="click-refused"
          >
            {refusedClickText[props.refusedClick]}
          </div>
        )}
        {!paidFor && (
          <OutcomeView
            progress={props.progress}
            outcome={outcome}
            onCancel={props.onCancel}
            onOpenSettings={props.onOpenSettings}
          />
        )}
        <details className="tech" data-testid="address-details">
          <summary data-action="address-details">Address</summary>
          <div className="mono" data-testid="address">
            {assessment.input}
          </div>
          <div className="row">
            <button
              type="button"
              data-action="copy-address"
              onClick={() => void navigator.clipboard.writeText(assessment.input)}
            >
              Copy address
            </button>
          </div>
          <div className="muted" data-testid="checksum-detail">
            {assessment.checksum.checksum.message}
          </div>
        </details>
        {assessment.payable && (
          <PaidCheckControls
            chain={props.chain}
            onChainChange={props.onChainChange}
            onCheck={props.onCheck}
            busy={props.busy}
            disabled={notice !== null}
            ready={props.clickReady}
            quiet={localDanger}
            paidFor={paidFor}
          />
        )}
        {assessment.payable && (
          <ChannelBalanceLine balances={channels} apiOrigin={apiOrigin} inCard />
        )}
        {assessment.payable && props.chainSource === "wallet" && !props.progress && !outcome && (
          <div className="muted">Chain preselected from your wallet.</div>
        )}
        <div className="row card-foot">
          {props.onOpenPanel && (
            <button
              type="button"
              className="link"
              data-action="side-panel"
              onClick={props.onOpenPanel}
            >
              Show in side panel
            </button>
          )}
          <button
            type="button"
            className="link"
            data-action="off-site"
            // Off until a click would count, as the paid buttons are (a decoy over the badge).
            disabled={!props.clickReady}
            onClick={props.onTurnOffSite}
          >
            {`Turn presend off on ${props.site || "this site"}`}
          </button>
        </div>
      </div>
    </section>
  );
}
