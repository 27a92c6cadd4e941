import { useEffect, useState } from "react";
import { browser } from "wxt/browser";
import {
  type ChannelBalance,
  channelBalancesKey,
  channelLeft,
  readChannelBalances,
} from "../channel/channelBalances";
import { resyncShownMs } from "../channel/resyncShownMs";
import { formatUsdc } from "./prices";

/**
 * The open payment channels, as the background last wrote them; kept fresh while shown. Read
 * straight from storage (no zod classic, no messaging) so the card that uses it stays small.
 */
export function useChannelBalances(): ChannelBalance[] {
  const [balances, setBalances] = useState<ChannelBalance[]>([]);
  useEffect(() => {
    let live = true;
    const read = () =>
      browser.storage.local.get(channelBalancesKey).then((stored) => {
        if (live) setBalances(readChannelBalances(stored[channelBalancesKey]));
      });
    void read();
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (area === "local" && channelBalancesKey in changes) void read();
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(onChanged);
    };
  }, []);
  return balances;
}

/**
 * What is left in each open channel: checks pay from it without a wallet prompt. The card says
 * where to close it (the popup, which has the close control beside this line).
 */
export function ChannelBalanceLine({
  balances,
  inCard = false,
}: {
  balances: ChannelBalance[];
  inCard?: boolean;
}) {
  const open = balances.filter((balance) => channelLeft(balance) > 0n);
  if (open.length === 0) return null;
  const resyncedLately = (balance: ChannelBalance) =>
    balance.resyncedAt !== undefined && Date.now() - Date.parse(balance.resyncedAt) < resyncShownMs;
  return (
    <>
      {open.map((balance) => (
        <div
          key={balance.channelId}
          className="muted"
          data-testid="channel-balance"
          data-left={String(channelLeft(balance))}
          data-session-ended={balance.sessionEnded ? "true" : undefined}
          data-resynced={!balance.sessionEnded && resyncedLately(balance) ? "true" : undefined}
        >
          {balance.sessionEnded
            ? `An earlier channel holds ${formatUsdc(channelLeft(balance))}: it pays no more checks, and presend's server sends it back to your wallet after a day without checks.`
            : `${resyncedLately(balance) ? "Channel re-synced with presend's server" : "Channel"}: ${formatUsdc(channelLeft(balance))} of ${formatUsdc(balance.deposited)} left. Checks pay from it without a wallet prompt${inCard ? "; close it in presend's toolbar popup to get the rest back." : "."}`}
        </div>
      ))}
    </>
  );
}
