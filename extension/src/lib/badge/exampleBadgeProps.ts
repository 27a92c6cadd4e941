import { assessLocally } from "../address/assessLocally";
import { type AddressCandidate, findAddressCandidate } from "../address/findAddressCandidate";
import type { BadgeProps } from "./BadgeCard";

const exampleAddress = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/**
 * A badge beside a pasted address on base, before anything was paid: the free assessment, no
 * wallet, the card closed, every handler doing nothing. For unit tests that render the badge
 * (what they vary comes in `overrides`).
 * @example render(<Badge {...exampleBadgeProps({ expanded: true })} />)
 */
export function exampleBadgeProps(overrides: Partial<BadgeProps> = {}): BadgeProps {
  // A checksummed address: always a candidate.
  const candidate = findAddressCandidate(exampleAddress) as AddressCandidate;
  const nothing = () => {};
  return {
    assessment: assessLocally(candidate, []),
    chain: "base",
    chainSource: "default",
    progress: null,
    outcome: null,
    busy: false,
    expanded: false,
    wallet: null,
    inFrame: false,
    clickReady: false,
    contractOn: null,
    refusedClick: null,
    recovery: { busy: false, result: null },
    onChainChange: nothing,
    onCheck: nothing,
    onToggle: nothing,
    onClose: nothing,
    onClearField: nothing,
    onCancel: nothing,
    onOpenSettings: nothing,
    onFetchReport: nothing,
    site: "dapp.example",
    onTurnOffSite: nothing,
    ...overrides,
  };
}
