import type { DelegateAssessment } from "../api/report";
import { bundleBearDelegates } from "./knownDelegateData";

export type KnownDelegate = {
  /** Lower-case delegate address; absent for an entry known by its code only. */
  address?: string;
  /** keccak256 of the runtime code: the same audited code deployed at another address. */
  codeHash?: string;
  label: string;
  category: "wallet" | "sweeper" | "helper";
  /** The wallet vendor a user would recognise (wallet category only). */
  vendor?: string;
};

/**
 * Delegates known by their runtime code. The hash is keccak256 of the deployedBytecode in the
 * published npm artifact named beside it (code without immutables, so every deployment of it
 * carries exactly these bytes).
 */
const delegatesByCode: readonly KnownDelegate[] = [
  {
    // @account-abstraction/contracts 0.8.0, artifacts/Simple7702Account.json
    codeHash: "0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3",
    label: "Simple 7702Account",
    category: "wallet",
    vendor: "Simple7702Account",
  },
];

const byAddress = new Map(
  bundleBearDelegates.flatMap((entry) => (entry.address ? [[entry.address, entry] as const] : [])),
);
const byCodeHash = new Map(
  delegatesByCode.flatMap((entry) => (entry.codeHash ? [[entry.codeHash, entry] as const] : [])),
);

/**
 * Judges an EIP-7702 delegate against the registry: by address first, then by runtime code hash
 * (a copy of known code at a new address is the same code). Unknown is "unknown", never trusted.
 * @example assessDelegate("0x63c0c19a282a1b52b07dd5a65b58948a07dae32b", null).category // "wallet"
 */
export function assessDelegate(
  address: string,
  codeHash: string | null,
): DelegateAssessment & { vendor: string | null } {
  const byAddressMatch = byAddress.get(address.toLowerCase());
  const byCodeMatch = codeHash ? byCodeHash.get(codeHash.toLowerCase()) : undefined;
  const match = byAddressMatch ?? byCodeMatch;
  return {
    address,
    codeHash,
    category: match?.category ?? "unknown",
    label: match?.label ?? null,
    matchedBy: byAddressMatch ? "address" : byCodeMatch ? "codeHash" : null,
    vendor: match?.vendor ?? null,
  };
}
