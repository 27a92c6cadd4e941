import { useEffect, useState } from "react";
import { browser } from "wxt/browser";
import { defaultApiUrl } from "../storage/defaultApiUrl";
import { pinScope } from "../storage/pinScope";

/** The key the settings live under in local storage (storage/items.ts defines the item). */
const settingsKey = "settings";

/**
 * The origin of the API the settings point at, the scope channels and pins are kept under; kept
 * fresh while shown. Read straight from storage, as useChannelBalances reads balances, so the card
 * that uses it stays small; anything unreadable counts as the build's default API.
 */
export function useApiOrigin(): string {
  const [origin, setOrigin] = useState(() => pinScope(defaultApiUrl));
  useEffect(() => {
    let live = true;
    const read = () =>
      browser.storage.local.get(settingsKey).then((stored) => {
        if (live) setOrigin(apiOriginOf(stored[settingsKey]));
      });
    void read();
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (area === "local" && settingsKey in changes) void read();
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(onChanged);
    };
  }, []);
  return origin;
}

/** The origin of stored settings' apiUrl; the default API's for anything else. */
export function apiOriginOf(settings: unknown): string {
  const apiUrl = (settings as { apiUrl?: unknown } | null | undefined)?.apiUrl;
  try {
    if (typeof apiUrl === "string") return pinScope(apiUrl);
  } catch {
    // Not a URL: the settings page never saves one, so this is a damaged record.
  }
  return pinScope(defaultApiUrl);
}
