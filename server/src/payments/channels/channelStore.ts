import type { Channel, ChannelStorage } from "@x402/evm/batch-settlement/server";
import type { AuthorizationKey } from "../records/paymentRecords";

/**
 * One paid request over a channel, as the channel store indexes it: the payment record it wrote
 * (`key`), the channel, and the cumulative ceiling its voucher signed. `committed` once the
 * scheme charged it in the channel (the answer was the report); `claimedTx` once a claim on
 * chain covered it.
 */
export type ChannelCharge = {
  key: AuthorizationKey;
  channelId: string;
  cumulative: bigint;
  committed: boolean;
  claimedTx: string | null;
};

/**
 * The server's channels (the `@x402/evm` ChannelStorage the scheme and its channel manager use)
 * and the index from channel charges to payment records, in one durable store, so a restart
 * loses no voucher and every claimed voucher's record can be marked settled.
 * `updateChannel` is atomic across every process sharing the store (SQLite: BEGIN IMMEDIATE).
 */
export type ChannelStore = ChannelStorage & {
  /** Indexes a paid request before it runs (not yet committed). */
  addCharge(charge: {
    key: AuthorizationKey;
    channelId: string;
    cumulative: bigint;
  }): Promise<void>;
  /** The scheme charged it: the report was the answer. */
  commitCharge(key: AuthorizationKey): Promise<void>;
  /** It was not charged (the request failed before the scheme committed it). */
  dropCharge(key: AuthorizationKey): Promise<void>;
  /**
   * No claim can ever cover it, committed or not (its payer withdrew what it would be claimed
   * from, and its record is failed): it leaves the index. A claimed charge stays.
   */
  dropUnclaimable(key: AuthorizationKey): Promise<void>;
  /** Charges of `channelId` not yet covered by a claim, lowest ceiling first. */
  unclaimedCharges(channelId?: string): Promise<ChannelCharge[]>;
  /** A claim in `tx` covered these charges. */
  markClaimed(keys: AuthorizationKey[], tx: string): Promise<void>;
  close(): Promise<void>;
};

export type { Channel };
