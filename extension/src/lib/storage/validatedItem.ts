import type { WxtStorageItem } from "wxt/utils/storage";
import type { z } from "zod";

/** A storage item whose reads are parsed with zod; an invalid stored value reads as the fallback. */
export type ValidatedItem<T> = {
  key: string;
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  /** Read, change and write back; returns the written value. */
  update(change: (current: T) => T): Promise<T>;
  watch(callback: (value: T) => void): () => void;
};

/**
 * Wraps a WXT storage item so every value read from storage is validated (fail closed).
 * @example const settings = validatedItem(settingsItem, SettingsSchema, defaults)
 */
export function validatedItem<T>(
  item: WxtStorageItem<unknown, Record<string, never>>,
  schema: z.ZodType<T>,
  fallback: T,
): ValidatedItem<T> {
  const parse = (value: unknown): T => {
    const result = schema.safeParse(value);
    return result.success ? result.data : fallback;
  };
  return {
    key: item.key,
    getValue: async () => parse(await item.getValue()),
    setValue: (value) => item.setValue(schema.parse(value)),
    async update(change) {
      const next = schema.parse(change(parse(await item.getValue())));
      await item.setValue(next);
      return next;
    },
    watch: (callback) => item.watch((value) => callback(parse(value))),
  };
}
