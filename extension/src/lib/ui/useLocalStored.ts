import { useEffect, useState } from "react";
import { browser } from "wxt/browser";

/**
 * A value kept in the extension's local storage under `key`, as `read` makes it from what is
 * stored (anything, or nothing), kept fresh while shown. Read straight from storage, without zod
 * or messaging, so the card that uses it in every page stays small. `read` is a module-level
 * function: the subscription is made once per key.
 * @example const balances = useLocalStored(channelBalancesKey, readChannelBalances, []);
 */
export function useLocalStored<T>(key: string, read: (stored: unknown) => T, initial: T): T {
  const [value, setValue] = useState<T>(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read is module-level (see above).
  useEffect(() => {
    let live = true;
    const load = () =>
      browser.storage.local.get(key).then((stored) => {
        if (live) setValue(read(stored[key]));
      });
    void load();
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (area === "local" && key in changes) void load();
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => {
      live = false;
      browser.storage.onChanged.removeListener(onChanged);
    };
  }, [key]);
  return value;
}
