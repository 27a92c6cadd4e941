import type { Hex } from "viem";
import type { ChannelChain } from "./createChannelChain";

/**
 * Transfers to `payTo` whatever the escrow holds as claimed for it in `asset` and not yet
 * settled, judged from the escrow itself: the channel manager only settles after a claim it made
 * in this process, so a claim made by the interval job just before a stop, by another replica or
 * by a process that died would otherwise wait for the next claim, on a quiet server for ever.
 * Nothing outstanding sends nothing (null). A settle refused because someone else settled in the
 * meantime (another replica, the interval job) is fine: the escrow is read again and the refusal
 * only stands while claimed money is still unsettled.
 * @example await settleOutstanding({ chain, payTo, asset, settle: () => manager.settle() });
 */
export async function settleOutstanding(options: {
  chain: Pick<ChannelChain, "receiverTotals">;
  payTo: Hex;
  asset: Hex;
  /** Sends the escrow's settle(payTo, asset) through the facilitator. */
  settle: () => Promise<{ transaction: string }>;
}): Promise<{ transaction: string } | null> {
  const { chain, payTo, asset } = options;
  const outstanding = async () => {
    const { claimed, settled } = await chain.receiverTotals(payTo, asset);
    return claimed > settled;
  };
  if (!(await outstanding())) return null;
  try {
    return await options.settle();
  } catch (error) {
    if (await outstanding()) throw error;
    return null;
  }
}
