import type { Channel, ChannelStore } from "./channelStore";
import type { ChannelChain } from "./createChannelChain";

/**
 * The channels a claim or refund job should act on, as the escrow can still pay them. Each one
 * with vouchers not yet claimed is read from the escrow, and its stored view refreshed (balance,
 * claimed total, a withdrawal the payer started on chain): vouchers are verified against that
 * view, and a withdrawal seen there refuses the next ones. Its claim is cut to what the escrow
 * holds: once the payer has withdrawn, vouchers above the balance can never be claimed, and one
 * such row fails the whole claim transaction, every other channel's vouchers with it. A channel
 * the escrow can pay nothing more is left out; one that could not be read is kept as stored
 * (reported through `onError`).
 * @example const targets = await syncWithEscrow(channels, { store, chain, onError, now: Date.now() });
 */
export async function syncWithEscrow(
  channels: Channel[],
  options: {
    store: Pick<ChannelStore, "updateChannel">;
    chain: Pick<ChannelChain, "channel">;
    onError: (error: unknown) => void;
    now: number;
  },
): Promise<Channel[]> {
  const { store, chain, onError, now } = options;
  const synced = await Promise.all(
    channels.map(async (stored): Promise<Channel | null> => {
      if (BigInt(stored.chargedCumulativeAmount) <= BigInt(stored.totalClaimed)) return stored;
      let escrow: Awaited<ReturnType<ChannelChain["channel"]>>;
      try {
        escrow = await chain.channel(stored.channelId);
      } catch (error) {
        onError(error);
        return stored;
      }
      const refreshed = await store.updateChannel(stored.channelId, (current) =>
        current === undefined
          ? current
          : {
              ...current,
              balance: String(escrow.balance),
              totalClaimed: String(
                escrow.totalClaimed > BigInt(current.totalClaimed)
                  ? escrow.totalClaimed
                  : BigInt(current.totalClaimed),
              ),
              withdrawRequestedAt: escrow.withdrawRequestedAt,
              onchainSyncedAt: now,
            },
      );
      // Refunded and dropped meanwhile: nothing left to claim from the store's side.
      if (refreshed.channel === undefined) return null;
      const charged = BigInt(refreshed.channel.chargedCumulativeAmount);
      const payable = charged < escrow.balance ? charged : escrow.balance;
      if (payable <= escrow.totalClaimed) return null;
      return {
        ...refreshed.channel,
        totalClaimed: String(escrow.totalClaimed),
        chargedCumulativeAmount: String(payable),
      };
    }),
  );
  return synced.filter((channel) => channel !== null);
}
