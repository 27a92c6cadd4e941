import type { ValidatedItem } from "./validatedItem";

/**
 * A storage item kept in memory, for tests of code that reads and writes extension storage.
 * @example const ledger = memoryItem({ day: "2025-06-01", spentUnits: 0 }); ledger.value()
 */
export function memoryItem<T>(initial: T): ValidatedItem<T> & { value: () => T } {
  let value = initial;
  return {
    key: "memory",
    value: () => value,
    getValue: async () => value,
    setValue: async (next) => {
      value = next;
    },
    update: async (change) => {
      value = change(value);
      return value;
    },
    watch: () => () => undefined,
  };
}
