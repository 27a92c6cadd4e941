import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ValidatedItem } from "../storage/validatedItem";
import { storedValueQueryKey, storedValueQueryOptions } from "./storedValue";

/** The current value of a storage item, kept fresh when any part of the extension writes it. */
export function useStoredValue<T>(item: ValidatedItem<T>) {
  const client = useQueryClient();
  useEffect(
    () =>
      item.watch(() => void client.invalidateQueries({ queryKey: storedValueQueryKey(item.key) })),
    [client, item],
  );
  return useQuery(storedValueQueryOptions(item));
}
