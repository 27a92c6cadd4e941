import type { Channel } from "./channelStore";

/**
 * The channels the refund job gives back: idle for at least `idleMs` (no request since) and
 * still holding more than was charged, so a refund returns something to the payer. A channel in
 * use keeps its deposit for the next voucher; a fully spent one has nothing to return, and
 * refunding it would only spend gas.
 * @example const targets = selectIdleRefunds(channels, { now: Date.now(), idleMs: 86_400_000 });
 */
export function selectIdleRefunds(
  channels: Channel[],
  options: { now: number; idleMs: number },
): Channel[] {
  return channels.filter(
    (channel) =>
      options.now - channel.lastRequestTimestamp >= options.idleMs &&
      BigInt(channel.balance) > BigInt(channel.chargedCumulativeAmount),
  );
}
