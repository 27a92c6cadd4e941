import { multicall3Address } from "../chains/chains";

/**
 * EIP-7702 delegates that make any call anyone asks of them, with no check of the caller. As an
 * account's code they make those calls as the account, so anyone can move out whatever it holds
 * or receives (bots do, at once). Multicall3 (`aggregate`, `aggregate3`, `aggregate3Value`,
 * `tryAggregate`; mds1, the same address on every chain) is one, and real accounts have
 * delegated to it: BundleBear lists it among the delegates in use, as a helper.
 */
const openDelegates = new Set([multicall3Address.toLowerCase()]);

/**
 * Whether an EIP-7702 account delegating to `delegate` can be emptied by anyone.
 * @example isOpenDelegate("0xcA11bde05977b3631167028862bE2a173976CA11") // true
 */
export function isOpenDelegate(delegate: string): boolean {
  return openDelegates.has(delegate.toLowerCase());
}
