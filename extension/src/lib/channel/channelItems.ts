import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { storage } from "wxt/utils/storage";
import { z } from "zod";
import { AddressSchema } from "../storage/schemas";
import { validatedItem } from "../storage/validatedItem";
import { type ChannelBalance, ChannelBalancesSchema, channelBalancesKey } from "./channelBalances";

// The payment channels' storage, apart from items.ts: the content script never loads it.

/**
 * The background's session key (the channels' voucher signer). Session storage is readable by
 * the extension's own pages and background only (Chrome's default access level, which presend
 * never widens: content scripts cannot read it) and is gone when the browser closes.
 */
export const ChannelSessionKeySchema = z.object({
  privateKey: z.string().regex(bytes32Pattern),
  address: AddressSchema,
});
export type ChannelSessionKey = z.infer<typeof ChannelSessionKeySchema>;

const units = z.string().regex(/^\d+$/);

/** The x402 client scheme's record of each channel (its ClientChannelStorage), by channel id. */
export const ChannelStatesSchema = z.record(
  z.string(),
  z.object({
    chargedCumulativeAmount: units.optional(),
    balance: units.optional(),
    totalClaimed: units.optional(),
    signedMaxClaimable: units.optional(),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]*$/)
      .optional(),
  }),
);
export type ChannelStates = z.infer<typeof ChannelStatesSchema>;

export const sessionKey = validatedItem<ChannelSessionKey | null>(
  storage.defineItem<unknown>("session:channelSessionKey", { fallback: null, version: 1 }),
  ChannelSessionKeySchema.nullable(),
  null,
);

export const channelStates = validatedItem<ChannelStates>(
  storage.defineItem<unknown>("session:channelStates", { fallback: {}, version: 1 }),
  ChannelStatesSchema,
  {},
);

/**
 * The salt of the channel each scope pays through now (see channelSaltKey), as the client's
 * ChannelSaltStore: a closed or server-refunded channel is left for one with a new salt, since
 * the escrow keeps its claimed total. Beside the channel records and the key, and gone with them.
 */
export const ChannelSaltsSchema = z.record(z.string(), z.string().regex(bytes32Pattern));
export type ChannelSalts = z.infer<typeof ChannelSaltsSchema>;

export const channelSalts = validatedItem<ChannelSalts>(
  storage.defineItem<unknown>("session:channelSalts", { fallback: {}, version: 1 }),
  ChannelSaltsSchema,
  {},
);

/** What the card and the popup show of each open channel (see ChannelBalancesSchema). */
export const channelBalances = validatedItem<ChannelBalance[]>(
  storage.defineItem<unknown>(`local:${channelBalancesKey}`, { fallback: [], version: 1 }),
  ChannelBalancesSchema,
  [],
);
