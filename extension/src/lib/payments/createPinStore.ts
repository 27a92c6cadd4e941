import type { PinStore } from "@presend/client";
import type { PinnedKeys } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";

/**
 * The client's PinStore over the extension's pinned keys: a key is trusted for the API origin it
 * was first seen at (the client pins per origin too), so another API is pinned anew.
 * @example const pinStore = createPinStore(pinnedKeys); await pinStore.get("https://api.presend.example")
 */
export function createPinStore(pinnedKeys: ValidatedItem<PinnedKeys>): PinStore {
  return {
    get: async (origin) => (await pinnedKeys.getValue())[origin],
    set: async (origin, pin) => {
      await pinnedKeys.update((pins) => ({ ...pins, [origin]: pin }));
    },
  };
}
