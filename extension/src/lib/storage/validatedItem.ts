import { InputError } from "@presend/shared/errors/InputError";
import type { WxtStorageItem } from "wxt/utils/storage";

/** A stored value that does not match its schema, read from an item that must not fall back. */
export class StoredValueInvalidError extends InputError<"stored_value_invalid"> {
  override name = "StoredValueInvalidError";
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`The stored value of ${key} is unreadable.`, {
      ...options,
      code: "stored_value_invalid",
    });
  }
}

/** A storage item whose reads are parsed with zod; an invalid stored value reads as the fallback. */
export type ValidatedItem<T> = {
  key: string;
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  /**
   * Read, change and write back; returns the written value. Updates of one item run one after
   * the other, so two at once (two paid checks adding to the ledger) never lose a write.
   */
  update(change: (current: T) => T): Promise<T>;
  watch(callback: (value: T) => void): () => void;
};

/** A zod schema, classic or mini (the card's items use zod's mini build to stay small). */
export type ItemSchema<T> = {
  parse(value: unknown): T;
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
};

/**
 * Wraps a WXT storage item so every value read from storage is validated (fail closed): an
 * invalid value reads as `fallback`, or throws StoredValueInvalidError with `onInvalid: "throw"`
 * (for values where the fallback would be the permissive answer).
 * @example const settings = validatedItem(settingsItem, SettingsSchema, defaults)
 */
export function validatedItem<T>(
  item: Pick<
    WxtStorageItem<unknown, Record<string, never>>,
    "key" | "getValue" | "setValue" | "watch"
  >,
  schema: ItemSchema<T>,
  fallback: T,
  options: { onInvalid?: "fallback" | "throw" } = {},
): ValidatedItem<T> {
  const parse = (value: unknown): T => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    if (options.onInvalid === "throw") {
      throw new StoredValueInvalidError(item.key, { cause: result.error });
    }
    return fallback;
  };
  // The tail of this item's update queue (each update waits for the one before).
  let lastUpdate: Promise<unknown> = Promise.resolve();
  return {
    key: item.key,
    getValue: async () => parse(await item.getValue()),
    setValue: async (value) => item.setValue(schema.parse(value)),
    update(change) {
      const run = lastUpdate.then(async () => {
        const next = schema.parse(change(parse(await item.getValue())));
        await item.setValue(next);
        return next;
      });
      lastUpdate = run.catch(() => undefined);
      return run;
    },
    // Watchers learn that the value changed; readers of a strict item see the error on getValue.
    watch: (callback) =>
      item.watch((value) => {
        const result = schema.safeParse(value);
        callback(result.success ? result.data : fallback);
      }),
  };
}
