import type { AuthorizationKey, PaymentRecords } from "../records/paymentRecords";
import type { ChannelCharge, ChannelStore } from "./channelStore";
import type { ChannelChain } from "./createChannelChain";

export type ChannelReconcileResult = { settled: number; failed: number; open: number };

/**
 * Settles the payment records of channel payments from the escrow, the source of truth: a charge
 * whose ceiling the channel's claimed total has reached is `settled` with the transaction of the
 * claim that crossed it (its Claimed event). One ceiling is charged once: an attempt the scheme
 * did not commit, beside one it did at the same ceiling, is the refused one and `failed`; a lone
 * one was charged (its process stopped between the charge and the mark). Charges not yet claimed
 * stay open; nothing changes when the chain cannot be read.
 * @example await reconcileChannelCharges({ store, records, chain });
 */
export async function reconcileChannelCharges(options: {
  store: ChannelStore;
  /** The payment records' one owner, which marks each covered charge's record. */
  records: Pick<PaymentRecords, "markSettled" | "markFailed">;
  chain: ChannelChain;
  /** Only these channels (after a claim); default every channel with open charges. */
  channelIds?: string[];
}): Promise<ChannelReconcileResult> {
  const { store, records, chain } = options;
  const result: ChannelReconcileResult = { settled: 0, failed: 0, open: 0 };
  const open = await store.unclaimedCharges();
  const byChannel = new Map<string, ChannelCharge[]>();
  const wanted = options.channelIds?.map((id) => id.toLowerCase());
  for (const charge of open) {
    if (wanted && !wanted.includes(charge.channelId.toLowerCase())) continue;
    byChannel.set(charge.channelId, [...(byChannel.get(charge.channelId) ?? []), charge]);
  }
  for (const [channelId, charges] of byChannel) {
    let total: bigint;
    try {
      total = await chain.totalClaimed(channelId);
    } catch {
      result.open += charges.length;
      continue;
    }
    const covered = charges.filter((charge) => charge.cumulative <= total);
    result.open += charges.length - covered.length;
    const lowest = covered[0]?.cumulative;
    if (lowest === undefined) continue;
    const claims = await chain.claimsAbove(channelId, lowest - 1n).catch(() => null);
    if (claims === null) {
      result.open += covered.length;
      continue;
    }
    const byTx = new Map<string, { settled: AuthorizationKey[]; failed: AuthorizationKey[] }>();
    for (const charge of covered) {
      const claim = claims.find((c) => c.from < charge.cumulative && charge.cumulative <= c.to);
      if (claim === undefined) {
        // Claimed before the log window: decided by hand, never guessed.
        result.open++;
        continue;
      }
      const refused =
        !charge.committed &&
        covered.some(
          (other) => other !== charge && other.committed && other.cumulative === charge.cumulative,
        );
      const entry = byTx.get(claim.tx) ?? { settled: [], failed: [] };
      (refused ? entry.failed : entry.settled).push(charge.key);
      byTx.set(claim.tx, entry);
    }
    for (const [tx, { settled, failed }] of byTx) {
      for (const key of settled) await records.markSettled(key, tx);
      for (const key of failed) await records.markFailed(key);
      await store.markClaimed([...settled, ...failed], tx);
      result.settled += settled.length;
      result.failed += failed.length;
    }
  }
  return result;
}
