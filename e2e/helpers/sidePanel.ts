import type { BrowserContext, Page, Worker } from "@playwright/test";

type SessionStorage = {
  chrome: {
    storage: {
      session: { get(key: string): Promise<Record<string, unknown>>; clear(): Promise<void> };
    };
  };
};

export type PanelTarget = { tabId: number; frameId: number };

/** Where the background says the side panel was opened (tab and frame), or null. */
export function panelTarget(serviceWorker: Worker): Promise<PanelTarget | null> {
  return serviceWorker.evaluate(
    async () =>
      ((await (globalThis as unknown as SessionStorage).chrome.storage.session.get("panelTarget"))
        .panelTarget as PanelTarget | undefined) ?? null,
  );
}

/** Forgets where the side panel was last opened (session storage outlives a test). */
export async function forgetPanelTarget(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(() =>
    (globalThis as unknown as SessionStorage).chrome.storage.session.clear(),
  );
}

/**
 * The side panel's page for `target`, opened as a page of the panel's size (Playwright cannot
 * reach the browser's own side panel; the page is the same).
 */
export async function openSidePanelPage(
  context: BrowserContext,
  extensionId: string,
  target: PanelTarget,
  size = { width: 360, height: 640 },
): Promise<Page> {
  const panel = await context.newPage();
  await panel.setViewportSize(size);
  await panel.goto(
    `chrome-extension://${extensionId}/sidepanel.html?tab=${target.tabId}&frame=${target.frameId}`,
  );
  return panel;
}
