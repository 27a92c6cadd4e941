import { storage } from "wxt/utils/storage";
import { defaultApiUrl } from "./defaultApiUrl";
import {
  type HistoryEntry,
  HistorySchema,
  PendingRecoveriesSchema,
  type PendingRecovery,
  type PinnedKeys,
  PinnedKeysSchema,
  type SentRecipient,
  SentRecipientsSchema,
  type Settings,
  SettingsSchema,
  type SpendLedger,
  SpendLedgerSchema,
} from "./schemas";
import { validatedItem } from "./validatedItem";

// Every persisted value of the extension, in one place. Only the background adds to the money
// related items (history, ledger, pinned keys); the options page can only reset the ledger and
// the pins, and content scripts read.

const defaultSettings: Settings = {
  apiUrl: defaultApiUrl,
  dailyCapUnits: 1_000_000,
  disabledSites: [],
};

/** Paid results, newest first, at most `historyLimit`. */
export const history = validatedItem<HistoryEntry[]>(
  storage.defineItem<unknown>("local:history", { fallback: [], version: 1 }),
  HistorySchema,
  [],
);
export const historyLimit = 50;

/**
 * Paid checks whose report has not arrived yet (see PendingRecoverySchema), newest first. Written
 * before a signed payment is sent, so a closed card, popup or stopped service worker loses none.
 */
export const pendingRecoveries = validatedItem<PendingRecovery[]>(
  storage.defineItem<unknown>("local:pendingRecoveries", { fallback: [], version: 1 }),
  PendingRecoveriesSchema,
  [],
);

/** Addresses the user sent funds to (seen by the wallet bridge), newest first. */
export const sentRecipients = validatedItem<SentRecipient[]>(
  storage.defineItem<unknown>("local:sentRecipients", { fallback: [], version: 1 }),
  SentRecipientsSchema,
  [],
);

export const settings = validatedItem<Settings>(
  storage.defineItem<unknown>("local:settings", { fallback: defaultSettings, version: 1 }),
  SettingsSchema,
  defaultSettings,
);

/** The attestation keys pinned on first use, one per API origin. */
export const pinnedKeys = validatedItem<PinnedKeys>(
  storage.defineItem<unknown>("local:pinnedAttestationKeys", { fallback: {}, version: 1 }),
  PinnedKeysSchema,
  {},
);

/** An empty ledger: the fallback, and what resetting an unreadable one writes. */
export const noSpending: SpendLedger = { day: "1970-01-01", spentUnits: 0 };

/**
 * What was spent today. Strict: an unreadable ledger throws instead of reading as $0, so the
 * cap can never be bypassed by corrupting it (paying fails closed until the person resets it).
 */
export const spendLedger = validatedItem<SpendLedger>(
  storage.defineItem<unknown>("local:spendLedger", { fallback: noSpending, version: 1 }),
  SpendLedgerSchema,
  noSpending,
  { onInvalid: "throw" },
);
