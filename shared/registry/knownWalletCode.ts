import type { WalletCode } from "../api/report";
import { assessDelegate } from "./knownDelegates";
import { findAccountImplementation } from "./knownImplementations";

/** Wallet code the registry names: always with a name, matched by address or code hash. */
export type KnownWalletCode = WalletCode & { name: string; matchedBy: "address" | "codeHash" };

/**
 * Wallet software's own contract: the code EIP-7702 accounts hand control to (a wallet delegate of
 * the registry) or the implementation smart-account proxies run. It answers like a smart account
 * (`entryPoint()`, ERC-1271) and keeps a native send, but it is nobody's wallet: it lets only the
 * account itself or an owner move funds, and as a contract of its own it has neither, so what is
 * sent to its address is lost. Explorers show these addresses on every delegated account's page,
 * which is where they get copied from; so the match is by address, as the registries name them,
 * or by the runtime code hash of a wallet delegate the registry knows by its code (the same code
 * deployed at another address is as ownerless).
 * @example findWalletCode("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B", null)?.name // "MetaMask"
 */
export function findWalletCode(
  address: string,
  codeHash: string | null,
): KnownWalletCode | undefined {
  const delegate = assessDelegate(address, codeHash);
  if (delegate.category === "wallet" && delegate.matchedBy) {
    return {
      name: delegate.vendor ?? delegate.label ?? "smart wallet",
      role: "eip7702-delegate",
      matchedBy: delegate.matchedBy,
    };
  }
  const implementation = findAccountImplementation(address);
  if (implementation) {
    return { name: implementation.vendor, role: "implementation", matchedBy: "address" };
  }
  return undefined;
}
