import { formatUnits } from "viem";
import { chains } from "../chains/chains";
import { type PricedRoute, routePrices } from "./routePrices";

/**
 * A route's price as a USD figure for texts ("0.01"), from the one price table.
 * @example `USD ${priceInUsd("check")}` // "USD 0.01"
 */
export function priceInUsd(route: PricedRoute): string {
  return formatUnits(routePrices[route], chains.base.usdc.decimals);
}
