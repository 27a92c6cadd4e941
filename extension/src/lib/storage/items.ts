import { storage } from "wxt/utils/storage";
import { defaultApiUrl } from "./defaultApiUrl";
import {
  type HistoryEntry,
  HistoryEntrySchema,
  type PendingRecovery,
  PendingRecoverySchema,
  type PinnedKeys,
  PinnedKeysSchema,
  type SentRecipient,
  SentRecipientSchema,
  type Settings,
  SettingsSchema,
  type SpendLedger,
  SpendLedgerSchema,
} from "./schemas";
import { validatedItem } from "./validatedItem";
import { validatedList } from "./validatedList";

// Every persisted value of the extension, in one place. Only the background adds to the money
// related items (history, ledger, pinned keys); the options page can only reset the ledger and
// the pins, and content scripts read.

const defaultSettings: Settings = {
  apiUrl: defaultApiUrl,
  dailyCapUnits: 1_000_000,
  disabledSites: [],
};

/** Paid results, newest first, at most `historyLimit`. */
export const history = validatedList<HistoryEntry>(
  storage.defineItem<unknown>("local:history", { fallback: [], version: 1 }),
  HistoryEntrySchema,
);
export const historyLimit = 50;

/**
 * Paid checks whose report has not arrived yet (see PendingRecoverySchema), newest first. Written
 * before a signed payment is sent, so a closed card, popup or stopped service worker loses none.
 */
export const pendingRecoveries = validatedList<PendingRecovery>(
  storage.defineItem<unknown>("local:pendingRecoveries", { fallback: [], version: 1 }),
  PendingRecoverySchema,
);

/** Addresses the user sent funds to (seen by the wallet bridge), newest first. */
export const sentRecipients = validatedList<SentRecipient>(
  storage.defineItem<unknown>("local:sentRecipients", { fallback: [], version: 1 }),
  SentRecipientSchema,
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
