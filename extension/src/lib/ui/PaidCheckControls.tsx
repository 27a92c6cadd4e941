import type { MouseEvent } from "react";
import { type ChainName, chainNames, chains } from "../../../../shared/chains/chains";
import type { Route } from "../storage/schemas";
import { formatUsdc, routePrices } from "./prices";

export type PaidCheckControlsProps = {
  chain: ChainName;
  onChainChange: (chain: ChainName) => void;
  /** Called only for a person's click: clicks a script synthesises are ignored. */
  onCheck: (route: Route) => void;
  /** A check is running: the chain and both buttons are locked. */
  busy: boolean;
  /** The buttons are off for another reason (nothing payable, no wallet to pay with). */
  disabled?: boolean;
};

/** The chain to check and the two paid checks with their prices, in the badge and the popup. */
export function PaidCheckControls(props: PaidCheckControlsProps) {
  const buttonsOff = props.busy || props.disabled === true;
  // isTrusted is false for clicks a page script synthesises; only a person's click pays.
  const onClick = (route: Route) => (event: MouseEvent<HTMLButtonElement>) => {
    if (event.nativeEvent.isTrusted) props.onCheck(route);
  };
  return (
    <div className="row" data-chain={props.chain}>
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
      <button
        type="button"
        className="primary"
        data-action="check"
        disabled={buttonsOff}
        onClick={onClick("check")}
      >
        Check {formatUsdc(routePrices.check)}
      </button>
      <button type="button" data-action="deep" disabled={buttonsOff} onClick={onClick("deep")}>
        Deep check {formatUsdc(routePrices.deep)}
      </button>
    </div>
  );
}
