import { queryOptions } from "@tanstack/react-query";
import type { ValidatedItem } from "../storage/validatedItem";

export const storedValueQueryKey = (key: string) => ["storage", key] as const;

/** A storage item as a query; pages invalidate it from the item's watch callback. */
export function storedValueQueryOptions<T>(item: ValidatedItem<T>) {
  return queryOptions({ queryKey: storedValueQueryKey(item.key), queryFn: () => item.getValue() });
}
