/**
 * A storage item whose reads and writes take a turn of the event loop, like chrome.storage, and
 * whose stored value a test can read back as it is.
 * @example const storage = slowStorageItem([]); await validatedList(storage, Entry).getValue();
 */
export function slowStorageItem(initial: unknown) {
  let stored = initial;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
  return {
    key: "local:test" as const,
    stored: () => stored,
    getValue: async () => {
      await tick();
      return stored;
    },
    setValue: async (value: unknown) => {
      await tick();
      stored = value;
    },
    watch: () => () => undefined,
  };
}
