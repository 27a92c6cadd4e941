import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { MouseEvent } from "react";
import type { Route } from "../storage/schemas";

export type PaidCheckControlsProps = {
  chain: ChainName;
  onChainChange: (chain: ChainName) => void;
  /** Called only for a person's click: clicks a script synthesises are ignored. */
  onCheck: (route: Route) => void;
  /** A check is running: the chain and both buttons are locked. */
  busy: boolean;
  /** The buttons are off for another reason (nothing payable, no wallet to pay with). */
  disabled?: boolean;
  /**
   * A click would count now (the badge's click gate: it stayed put and was seen uncovered for
   * a moment). Until then the buttons are shown disabled, so a normal click during the wait is
   * not met with a refusal. Left out where there is no gate (the popup).
   */
  ready?: boolean;
  /**
   * No paid button is the primary action: after a verdict ("Copy report" is), or when the free
   * check already found danger.
   */
  quiet?: boolean;
  /**
   * The result shown was paid for (a verdict, or a payment that may have been charged): the
   * buttons fold under "Check again (pays again)" so nothing invites a second charge.
   */
  paidFor?: boolean;
};

/** The chain to check and the two paid checks with their prices, in the badge and the popup. */
export function PaidCheckControls(props: PaidCheckControlsProps) {
  const waiting = props.ready === false && !props.busy;
  const buttonsOff = props.busy || props.disabled === true || props.ready === false;
  // isTrusted is false for clicks a page script synthesises; only a person's click pays.
  const onClick = (route: Route) => (event: MouseEvent<HTMLButtonElement>) => {
    if (event.nativeEvent.isTrusted) props.onCheck(route);
  };
  const buttons = (
    <div className="row">
      <button
        type="button"
        className={props.quiet || props.paidFor ? undefined : "primary"}
        data-action="check"
        disabled={buttonsOff}
        title={waiting ? "Ready in a moment" : undefined}
        onClick={onClick("check")}
      >
        Check {formatUsdc(routePrices.check)}
      </button>
      <button
        type="button"
        data-action="deep"
        disabled={buttonsOff}
        onClick={onClick("deep")}
        title="All five chains: wrong network and token mix-ups"
      >
        Deep check {formatUsdc(routePrices.deep)}
      </button>
    </div>
  );
  return (
    <div className="paid-checks" data-chain={props.chain}>
      <label className="row">
        <span className="muted">Paid check on</span>
        <select
          aria-label="Chain to check"
          data-testid="chain"
          value={props.chain}
          disabled={props.busy}
          onChange={(e) => props.onChainChange(e.target.value as ChainName)}
        >
          {chainNames.map((name) => (
            <option key={name} value={name}>
              {chains[name].label}
            </option>
          ))}
        </select>
      </label>
      {props.paidFor ? (
        <details className="again" data-testid="check-again">
          <summary data-action="check-again">Check again (pays again)</summary>
          {buttons}
        </details>
      ) : (
        buttons
      )}
    </div>
  );
}
