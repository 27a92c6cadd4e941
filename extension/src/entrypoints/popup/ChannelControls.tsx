import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { useState } from "react";
import { channelLeft } from "../../lib/channel/channelBalances";
import { lostCloseOutcome } from "../../lib/channel/lostCloseOutcome";
import type { Messenger } from "../../lib/messaging/messenger";
import type { ResponseOf } from "../../lib/messaging/protocol";
import { ChannelBalanceLine, useChannelBalances } from "../../lib/ui/ChannelBalanceLine";
import { useApiOrigin } from "../../lib/ui/useApiOrigin";

/** The open payment channel's balance, and closing it to get the rest back (on a click here only). */
export function ChannelControls({
  messenger,
  tabId,
}: {
  messenger: Messenger;
  tabId: number | null;
}) {
  const balances = useChannelBalances();
  const apiOrigin = useApiOrigin();
  const [closing, setClosing] = useState(false);
  const [result, setResult] = useState<ResponseOf<"channel.close"> | null>(null);
  // Only a channel this browser session holds the key of can be closed from here.
  const left = balances
    .filter((balance) => !balance.sessionEnded)
    .reduce((sum, balance) => sum + channelLeft(balance), 0n);
  const close = () => {
    setClosing(true);
    messenger
      .send("channel.close", { tabId })
      .then(setResult, (error: unknown) => setResult(lostCloseOutcome(error)))
      .finally(() => setClosing(false));
  };
  return (
    <>
      <ChannelBalanceLine balances={balances} apiOrigin={apiOrigin} />
      {left > 0n && (
        <div className="row">
          <button type="button" data-action="close-channel" disabled={closing} onClick={close}>
            {closing ? "Closing…" : `Close the channel, get ${formatUsdc(left)} back`}
          </button>
        </div>
      )}
      {result && (
        <div
          className={result.type === "failed" ? "alert level-warn" : "muted"}
          data-testid="channel-closed"
          data-state={result.type}
        >
          {result.message}
        </div>
      )}
    </>
  );
}
