import type { WxtStorageItem } from "wxt/utils/storage";
import type { ItemSchema, ValidatedItem } from "./validatedItem";

/**
 * A stored list whose entries are validated one by one: an entry that does not match (written
 * by a newer or older build, or edited by hand) is left out of what is read, but kept in storage
 * when the list is updated, so one odd entry never costs the others, and a payment still waiting
 * for its report is never dropped because it sat beside one. Only `setValue` (clearing or
 * replacing the whole list on purpose) removes unreadable entries.
 * @example const history = validatedList(historyItem, HistoryEntrySchema)
 */
export function validatedList<T>(
  item: Pick<
    WxtStorageItem<unknown, Record<string, never>>,
    "key" | "getValue" | "setValue" | "watch"
  >,
  entry: ItemSchema<T>,
): ValidatedItem<T[]> {
  const split = (value: unknown): { readable: T[]; unreadable: unknown[] } => {
    const readable: T[] = [];
    const unreadable: unknown[] = [];
    // Not a list at all: nothing in it can be told apart, so it reads as empty.
    if (!Array.isArray(value)) return { readable, unreadable };
    for (const stored of value) {
      const result = entry.safeParse(stored);
      if (result.success) readable.push(result.data);
      else unreadable.push(stored);
    }
    return { readable, unreadable };
  };
  const checked = (values: T[]): T[] => values.map((value) => entry.parse(value));
  // The tail of this list's update queue (each update waits for the one before).
  let lastUpdate: Promise<unknown> = Promise.resolve();
  return {
    key: item.key,
    getValue: async () => split(await item.getValue()).readable,
    setValue: async (values) => item.setValue(checked(values)),
    update(change) {
      const run = lastUpdate.then(async () => {
        const { readable, unreadable } = split(await item.getValue());
        const next = checked(change(readable));
        // The unreadable entries go back after the readable ones (oldest last, as they are).
        await item.setValue([...next, ...unreadable]);
        return next;
      });
      lastUpdate = run.catch(() => undefined);
      return run;
    },
    watch: (callback) => item.watch((value) => callback(split(value).readable)),
  };
}
