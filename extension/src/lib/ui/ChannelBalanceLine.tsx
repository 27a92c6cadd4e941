import { visibleEnds } from "@presend/shared/address/visibleEnds";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import {
  type ChannelBalance,
  channelBalancesKey,
  channelLeft,
  readChannelBalances,
} from "../channel/channelBalances";
import { resyncShownMs } from "../channel/resyncShownMs";
import { useLocalStored } from "./useLocalStored";

/** The open payment channels, as the background last wrote them; kept fresh while shown. */
export function useChannelBalances(): ChannelBalance[] {
  return useLocalStored(channelBalancesKey, readChannelBalances, noBalances);
}

const noBalances: ChannelBalance[] = [];

/**
 * What is left in each open channel, and which account it pays for: a check pays from it without
 * a wallet prompt only when that account pays, on the API the settings point at (`apiOrigin`).
 * The card shows only that API's channels and says where to close them (the popup, which has the
 * close control beside this line); the popup shows every channel, another API's named as such.
 */
export function ChannelBalanceLine({
  balances,
  apiOrigin,
  inCard = false,
}: {
  balances: ChannelBalance[];
  apiOrigin: string;
  inCard?: boolean;
}) {
  const open = balances.filter(
    (balance) => channelLeft(balance) > 0n && (!inCard || balance.apiUrl === apiOrigin),
  );
  if (open.length === 0) return null;
  const resyncedLately = (balance: ChannelBalance) =>
    balance.resyncedAt !== undefined && Date.now() - Date.parse(balance.resyncedAt) < resyncShownMs;
  const line = (balance: ChannelBalance) => {
    const left = `${formatUsdc(channelLeft(balance))} of ${formatUsdc(balance.deposited)} left`;
    if (balance.apiUrl !== apiOrigin) {
      return `A channel with ${hostOf(balance.apiUrl)}, not the API in your settings, holds ${left}; checks here do not pay from it.`;
    }
    const name = `Channel of ${visibleEnds(balance.payer)}${resyncedLately(balance) ? " (re-synced with presend's server)" : ""}`;
    return `${name}: ${left}. Checks paid by that account take no wallet prompt${inCard ? "; close it in presend's toolbar popup to get the rest back." : "."}`;
  };
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
            : line(balance)}
        </div>
      ))}
    </>
  );
}

/** The host of an API origin, as a person reads it. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
