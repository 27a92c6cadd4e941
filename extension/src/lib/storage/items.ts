import { storage } from "wxt/utils/storage";
import { defaultApiUrl } from "./defaultApiUrl";
import {
  type HistoryEntry,
  HistorySchema,
  type PinnedKey,
  PinnedKeySchema,
  type SentRecipient,
  SentRecipientsSchema,
  type Settings,
  SettingsSchema,
  type SpendLedger,
  SpendLedgerSchema,
} from "./schemas";
import { validatedItem } from "./validatedItem";

// Every persisted value of the extension, in one place. Only the background writes the money
// related items (history, ledger, pinned key); pages and content scripts read them.

export const defaultSettings: Settings = {
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

/** The attestation key pinned on first use (spec §5.6); null until the first paid call. */
export const pinnedKey = validatedItem<PinnedKey>(
  storage.defineItem<unknown>("local:pinnedAttestationKey", { fallback: null, version: 1 }),
  PinnedKeySchema,
  null,
);

export const spendLedger = validatedItem<SpendLedger>(
  storage.defineItem<unknown>("local:spendLedger", {
    fallback: { day: "1970-01-01", spentUnits: 0 },
    version: 1,
  }),
  SpendLedgerSchema,
  { day: "1970-01-01", spentUnits: 0 },
);
