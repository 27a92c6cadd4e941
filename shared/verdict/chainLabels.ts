import { type ChainName, chains } from "../chains/chains";
import { joinNames } from "./joinNames";

/**
 * How a reason names chains: by their display names (the chain table's `label`), joined as a
 * sentence does. The ids ("base") are for codes and fields, never for the words a person reads.
 * @example chainLabels(["base", "optimism"]) // "Base and OP Mainnet"
 */
export function chainLabels(
  names: readonly ChainName[],
  conjunction: "and" | "or" = "and",
): string {
  return joinNames(
    names.map((name) => chains[name].label),
    conjunction,
  );
}
