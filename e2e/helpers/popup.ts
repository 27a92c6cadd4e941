import type { BrowserContext, Worker } from "@playwright/test";

type ChromeTabs = {
  chrome: {
    tabs: {
      query(q: object): Promise<Array<{ id: number }>>;
      create(p: object): Promise<{ id: number }>;
      sendMessage(id: number, m: object): Promise<{ ok: boolean; data?: { available?: boolean } }>;
    };
  };
};

// Without the "tabs" permission the extension cannot see tab URLs; the dApp tab is the one
// whose content script reports a wallet.
/** The id of the tab whose content script reports a wallet (the dApp). */
export async function tabWithWallet(serviceWorker: Worker): Promise<number> {
  return serviceWorker.evaluate(async () => {
    const { chrome } = globalThis as unknown as ChromeTabs;
    for (const tab of await chrome.tabs.query({})) {
      const reply = await chrome.tabs
        .sendMessage(tab.id, { presend: 1, type: "wallet.info", data: {} })
        .catch(() => null);
      if (reply?.ok && reply.data?.available) return tab.id;
    }
    throw new Error("no tab with a wallet");
  });
}

/** A new background tab without any page (and so without a wallet). */
export async function newBlankTab(serviceWorker: Worker): Promise<number> {
  return serviceWorker.evaluate(async () => {
    const { chrome } = globalThis as unknown as ChromeTabs;
    return (await chrome.tabs.create({ url: "about:blank", active: false })).id;
  });
}

/** The popup, opened as a page for `tabId` (Playwright cannot open the action popup itself). */
export async function openPopup(context: BrowserContext, extensionId: string, tabId: number) {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
  return popup;
}
