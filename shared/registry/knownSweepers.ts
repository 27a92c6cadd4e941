import type { KnownSweeper } from "../api/report";
import { assessDelegate } from "./knownDelegates";

/**
 * A contract the registry lists as an EIP-7702 sweeper, checked as the address itself: the code
 * stolen keys hand their accounts to, which passes every deposit on to a thief. Its receive
 * simulation forwards the deposit as an exchange's deposit address does, so only the registry
 * tells the two apart. Explorers show the sweeper's address on every swept account's page, which
 * is where it gets copied from. Matched by address, as the registry names them.
 * @example findKnownSweeper("0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d")?.label // "Crime"
 */
export function findKnownSweeper(address: string): KnownSweeper | undefined {
  const delegate = assessDelegate(address, null);
  if (delegate.category !== "sweeper" || delegate.matchedBy !== "address") return undefined;
  return { label: delegate.label ?? "sweeper" };
}
