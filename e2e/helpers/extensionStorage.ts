import type { Worker } from "@playwright/test";

type ChromeStorage = {
  chrome: {
    storage: {
      local: {
        set(items: object): Promise<void>;
        get(key: string): Promise<Record<string, unknown>>;
        clear(): Promise<void>;
      };
    };
  };
};

/** Empties the extension's chrome.storage.local: a fresh install's state. */
export async function clearExtensionStorage(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(() =>
    (globalThis as unknown as ChromeStorage).chrome.storage.local.clear(),
  );
}

/** Writes items straight into the extension's chrome.storage.local (as the options page would). */
export async function setExtensionStorage(serviceWorker: Worker, items: object): Promise<void> {
  await serviceWorker.evaluate(
    (value) => (globalThis as unknown as ChromeStorage).chrome.storage.local.set(value),
    items,
  );
}

/** Reads one raw item from the extension's chrome.storage.local. */
export async function getExtensionStorage(serviceWorker: Worker, key: string): Promise<unknown> {
  return serviceWorker.evaluate(
    async (name) =>
      (await (globalThis as unknown as ChromeStorage).chrome.storage.local.get(name))[name],
    key,
  );
}

/** The extension's settings (API URL, daily cap and channel deposit in USDC base units, disabled sites). */
export async function setExtensionSettings(
  serviceWorker: Worker,
  settings: {
    apiUrl: string;
    dailyCapUnits?: number;
    channelDepositUnits?: number;
    disabledSites?: string[];
    checkAsPayer?: boolean;
  },
): Promise<void> {
  // The sender is left out unless a test asks for it: the demo payer never paid the demo
  // addresses, and "you have never paid this address" would make every verdict caution.
  await setExtensionStorage(serviceWorker, {
    settings: { dailyCapUnits: 1_000_000, disabledSites: [], checkAsPayer: false, ...settings },
  });
}
