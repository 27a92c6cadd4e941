import { queryOptions } from "@tanstack/react-query";
import type { Messenger } from "../messaging/messenger";
import { noWallet } from "../wallet/noWallet";

export const walletStatusQueryKey = (tabId: number | null) => ["walletStatus", tabId] as const;

/** The wallet of a tab, through the background and that tab's bridge (no prompt). */
export function walletStatusQueryOptions(messenger: Messenger, tabId: number | null) {
  return queryOptions({
    queryKey: walletStatusQueryKey(tabId),
    queryFn: () => (tabId === null ? noWallet : messenger.send("wallet.status", { tabId })),
  });
}
