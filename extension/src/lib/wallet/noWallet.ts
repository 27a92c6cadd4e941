import type { WalletInfo } from "../messaging/protocol";

/** What a tab without a reachable wallet reports: nothing injected, no account, no chain. */
export const noWallet: WalletInfo = {
  available: false,
  address: null,
  chainId: null,
  name: null,
  others: [],
};
