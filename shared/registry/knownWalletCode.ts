import { assessDelegate } from "./knownDelegates";
import { findAccountImplementation } from "./knownImplementations";

export type WalletCode = {
  /** The wallet software it is the code of ("MetaMask", "Coinbase Smart Wallet"). */
  name: string;
  /** How wallets run it: EIP-7702 accounts delegate to it, or account proxies point at it. */
  role: "eip7702-delegate" | "implementation";
};

/**
 * Wallet software's own contract: the code EIP-7702 accounts hand control to (a wallet delegate of
 * the registry) or the implementation smart-account proxies run. It answers like a smart account
 * (`entryPoint()`, ERC-1271) and keeps a native send, but it is nobody's wallet: it lets only the
 * account itself or an owner move funds, and as a contract of its own it has neither, so what is
 * sent to its address is lost. Explorers show these addresses on every delegated account's page,
 * which is where they get copied from; so the match is by address, as the registries name them.
 * @example findWalletCode("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B")?.name // "MetaMask"
 */
export function findWalletCode(address: string): WalletCode | undefined {
  const delegate = assessDelegate(address, null);
  if (delegate.category === "wallet") {
    return { name: delegate.vendor ?? delegate.label ?? "smart wallet", role: "eip7702-delegate" };
  }
  const implementation = findAccountImplementation(address);
  if (implementation) return { name: implementation.vendor, role: "implementation" };
  return undefined;
}
