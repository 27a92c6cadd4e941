import type { AuthorizationKey, PaymentRecords } from "../records/paymentRecords";
import type { Channel, ChannelCharge, ChannelStore } from "./channelStore";
import type { ChannelChain, EscrowChannel } from "./createChannelChain";

export type ChannelReconcileResult = { settled: number; failed: number; open: number };

/**
 * How old a record must be before its uncharged voucher is failed: far longer than a paid
 * request runs (its payment times out after 60 s), so a request still in flight is never judged.
 */
export const unchargedGraceMs = 10 * 60_000;

/**
 * Settles the payment records of channel payments from the escrow, the source of truth: a charge
 * whose ceiling the channel's claimed total has reached is `settled` with the transaction of the
 * claim that crossed it (its Claimed event). One ceiling is charged once: an attempt the scheme
 * did not commit, beside one it did at the same ceiling, is the refused one and `failed`; a lone
 * one was charged (its process stopped between the charge and the mark). Charges not yet claimed
 * stay open, except an uncommitted one above everything the channel charged (or, its channel
 * refunded and gone, above its claimed total), whose record is older than any request runs: the
 * scheme never charged that ceiling (its process died mid-request, or an operating-system crash
 * lost the charge with the channel's state), no claim can reach it, so its record is `failed`
 * rather than pending for ever. A charged voucher above what the escrow still holds (its payer
 * withdrew the deposit while no claim ran) can never be claimed either: the channel is cut to the
 * escrow's balance for good, so no later deposit can make a claim reach it, and its record is
 * `failed` (the chain proves the payer was not charged for it). Nothing changes when the chain
 * cannot be read.
 * @example await reconcileChannelCharges({ store, records, chain });
 */
export async function reconcileChannelCharges(options: {
  store: ChannelStore;
  /** The payment records' one owner, which marks each covered charge's record. */
  records: Pick<PaymentRecords, "markSettled" | "markFailed" | "byAuthorization">;
  chain: Pick<ChannelChain, "channel" | "claimsAbove">;
  /** Only these channels (after a claim); default every channel with open charges. */
  channelIds?: string[];
  /** The time records' ages are judged at (ms); default now. */
  now?: number;
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
    // The stored channel as it was before the escrow was read: a request that charged it since
    // makes that read too old to cut it by (null: unreadable, never cut).
    const before = await store.get(channelId).catch(() => null);
    let escrow: EscrowChannel;
    try {
      escrow = await chain.channel(channelId);
    } catch {
      result.open += charges.length;
      continue;
    }
    const total = escrow.totalClaimed;
    const covered = charges.filter((charge) => charge.cumulative <= total);
    const unpayable = await unpayableOf(charges, { channelId, before, escrow, store }).catch(
      (): AuthorizationKey[] => [],
    );
    for (const key of unpayable) {
      await records.markFailed(key);
      await store.dropUnclaimable(key);
    }
    result.failed += unpayable.length;
    const above = charges.filter(
      (charge) => charge.cumulative > total && !unpayable.includes(charge.key),
    );
    // A store or records read that fails leaves them open for the next pass, like the chain's.
    const uncharged = await unchargedOf(above, channelId, total, options).catch(() => []);
    for (const key of uncharged) {
      await records.markFailed(key);
      await store.dropCharge(key);
    }
    result.failed += uncharged.length;
    result.open += above.length - uncharged.length;
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

/**
 * The charged (committed) vouchers of `channelId` above the escrow's balance: claims cannot reach
 * them (the escrow refuses a claim above its balance), since its payer withdrew what was left.
 * The stored channel is cut to that balance first, so no claim ever covers them, not even after
 * a later deposit. A channel serving a request now, or one a request used since the escrow was
 * read (a deposit may have raised the balance read), is left for the next pass: the request's
 * charge is counted from the stored total. A channel gone from the store has no claim left.
 */
async function unpayableOf(
  charges: ChannelCharge[],
  options: {
    channelId: string;
    /** The stored channel read before the escrow was (null: it could not be read). */
    before: Channel | undefined | null;
    escrow: EscrowChannel;
    store: ChannelStore;
  },
): Promise<AuthorizationKey[]> {
  const { channelId, before, escrow, store } = options;
  const beyond = charges.filter((charge) => charge.committed && charge.cumulative > escrow.balance);
  if (beyond.length === 0 || before === null) return [];
  let deferred = false;
  await store.updateChannel(channelId, (current) => {
    if (current === undefined) return current;
    const used = current.lastRequestTimestamp !== before?.lastRequestTimestamp;
    // Wall-clock time, as the scheme stamps a request's expiry.
    if (used || (current.pendingRequest?.expiresAt ?? 0) > Date.now()) {
      deferred = true;
      return current;
    }
    if (BigInt(current.chargedCumulativeAmount) <= escrow.balance) return current;
    const claimed = BigInt(current.totalClaimed);
    return {
      ...current,
      chargedCumulativeAmount: String(escrow.balance),
      balance: String(escrow.balance),
      // A claim that landed after the read has already raised the stored total.
      totalClaimed: String(escrow.totalClaimed > claimed ? escrow.totalClaimed : claimed),
    };
  });
  return deferred ? [] : beyond.map((charge) => charge.key);
}

/**
 * The uncommitted charges of `channelId` above all it charged (its stored charged total; the
 * claimed total once a refund removed it) whose records are past the grace: the ones no claim
 * can ever cover.
 */
async function unchargedOf(
  above: ChannelCharge[],
  channelId: string,
  claimedTotal: bigint,
  options: {
    store: ChannelStore;
    records: Pick<PaymentRecords, "byAuthorization">;
    now?: number;
  },
): Promise<AuthorizationKey[]> {
  const candidates = above.filter((charge) => !charge.committed);
  if (candidates.length === 0) return [];
  const channel = await options.store.get(channelId);
  const charged = channel === undefined ? claimedTotal : BigInt(channel.chargedCumulativeAmount);
  const now = options.now ?? Date.now();
  const found: AuthorizationKey[] = [];
  for (const charge of candidates) {
    if (charge.cumulative <= charged) continue;
    const record = await options.records.byAuthorization(charge.key);
    // No record: nothing stands pending for it (its request stopped before the record).
    if (record === undefined || record.status === "settled") continue;
    if (now - Date.parse(record.createdAt) < unchargedGraceMs) continue;
    found.push(charge.key);
  }
  return found;
}
