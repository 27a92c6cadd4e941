import { defaultApiUrl } from "../storage/defaultApiUrl";
import { pinScope } from "../storage/pinScope";
import { useLocalStored } from "./useLocalStored";

/** The key the settings live under in local storage (storage/items.ts defines the item). */
const settingsKey = "settings";

/**
 * The origin of the API the settings point at, the scope channels and pins are kept under; kept
 * fresh while shown; anything unreadable counts as the build's default API.
 */
export function useApiOrigin(): string {
  return useLocalStored(settingsKey, apiOriginOf, pinScope(defaultApiUrl));
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
