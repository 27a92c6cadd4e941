import { PinRecordSchema } from "@presend/client/PinStore";
import { addressPattern } from "@presend/shared/address/addressPattern";
import {
  ChainNameSchema,
  DeepReportSchema,
  LevelSchema,
  ReportSchema,
} from "@presend/shared/api/report";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";

// Shapes of everything the extension persists. Storage is validated on every load: a value
// written by an older build or edited by hand falls back instead of flowing on unchecked (an
// entry of a list is left out on its own, the others read; see validatedList).

export const RouteSchema = z.enum(["check", "deep"]);
export type Route = z.infer<typeof RouteSchema>;

export const AddressSchema = z
  .string()
  .regex(addressPattern) as unknown as z.ZodType<`0x${string}`>;

export const HistoryEntrySchema = z.object({
  id: z.string(),
  address: AddressSchema,
  chain: ChainNameSchema,
  route: RouteSchema,
  level: LevelSchema,
  headline: z.string(),
  checkedAt: z.string(),
  /** What was paid, in USDC base units, and to whom. */
  amount: z.string(),
  payTo: AddressSchema,
  /** Settlement transaction on Base, when the server reported it. */
  transaction: z.string().nullable(),
  report: z.union([DeepReportSchema, ReportSchema]),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const SentRecipientSchema = z.object({
  address: AddressSchema,
  at: z.string(),
  /** The site whose page reported the send (a page can forge sends: each site has its share). */
  site: z.string().optional(),
});
/**
 * A payment whose report did not arrive: the signed authorization went out and the answer was
 * lost or said the outcome is unknown. Kept until the report is fetched again through
 * /receipts (with the payer's signature) or the server proves nothing was charged.
 */
export const PendingRecoverySchema = z.object({
  id: z.string(),
  /** The API origin the payment went to (its pinned key verifies the recovered report). */
  apiUrl: z.string(),
  payer: AddressSchema,
  /** The EIP-3009 authorization nonce (bytes32): finds the payment when the transaction is unknown. */
  nonce: z.string().regex(bytes32Pattern),
  /** The settlement transaction, when the server named it. */
  transaction: z.string().regex(bytes32Pattern).nullable(),
  route: RouteSchema,
  address: AddressSchema,
  chain: ChainNameSchema,
  /** USDC base units signed for, and to whom. */
  amount: z.string(),
  payTo: AddressSchema,
  /** When the authorization was signed. */
  sentAt: z.string(),
  /**
   * The UTC day the daily cap counted this exact payment on: set once the spend ledger holds it,
   * cleared when the cap gets it back (a fetch that proves nothing was charged). Absent: the
   * ledger may not hold it (the background stopped before counting it), so nothing is given back.
   */
  countedOn: z.string().optional(),
  /** The last attempt to fetch the report, as shown to the person. */
  lastAttempt: z
    .object({
      at: z.string(),
      state: z.enum(["unknown", "pending", "not_charged", "forged", "rejected", "failed"]),
      message: z.string(),
    })
    .nullable(),
});
export type PendingRecovery = z.infer<typeof PendingRecoverySchema>;
export type SentRecipient = z.infer<typeof SentRecipientSchema>;

export const SettingsSchema = z.object({
  apiUrl: z.url(),
  /** USDC base units (6 decimals) that may be spent per UTC day. */
  dailyCapUnits: z.number().int().nonnegative(),
  /** Hostnames where the badge stays off. */
  disabledSites: z.array(z.string()),
  /**
   * Paid checks name the paying account as the sender, so the report reads its own payments
   * (address poisoning, first-time recipient). On unless turned off (absent: on).
   */
  checkAsPayer: z.boolean().optional(),
  /**
   * What one deposit into a payment channel puts in, in USDC base units, when the server offers
   * channels: the wallet signs the deposit once, then checks pay from it without a prompt. Counted
   * whole against the daily cap when it is sent. 0 pays every check with its own signature.
   * Absent: channelDepositDefault.
   */
  channelDepositUnits: z.number().int().nonnegative().optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

// The client's pin record: one format in the extension, the CLI and the MCP server.
const PinnedKeySchema = PinRecordSchema;
export type PinnedKey = z.infer<typeof PinnedKeySchema>;

/**
 * Pinned keys by API origin (see pinScope): a key is trusted for the server it was first seen
 * at only, so pointing the extension at another API pins that API's key anew.
 */
export const PinnedKeysSchema = z.record(z.string(), PinnedKeySchema);
export type PinnedKeys = z.infer<typeof PinnedKeysSchema>;

export const SpendLedgerSchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  spentUnits: z.number().int().nonnegative(),
});
export type SpendLedger = z.infer<typeof SpendLedgerSchema>;

/** The deposit a channel is opened with unless the settings say otherwise: $0.05. */
export const channelDepositDefault = 50_000;
