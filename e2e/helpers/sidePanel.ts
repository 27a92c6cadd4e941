import { type BrowserContext, expect, type Page, type Worker } from "@playwright/test";
import { type BadgeTarget, clickBadgeButton } from "./badge";

type SessionStorage = {
  chrome: {
    storage: {
      session: {
        get(key: string): Promise<Record<string, unknown>>;
        remove(key: string): Promise<void>;
      };
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

/**
 * Forgets where the side panel was last opened (session storage outlives a test). Only that key:
 * clearing all of session storage would also take the channel session key from under a running
 * background, something no browser does while the extension runs.
 */
export async function forgetPanelTarget(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(() =>
    (globalThis as unknown as SessionStorage).chrome.storage.session.remove("panelTarget"),
  );
}

/**
 * Closes the browser's own side panel in every window, so a panel opened by one test does not
 * follow the badges of the next.
 */
export async function closeBrowserSidePanel(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(async () => {
    const chrome = (globalThis as unknown as SidePanelApi).chrome;
    const windows = await chrome.windows.getAll();
    await Promise.all(
      windows.map((w) => chrome.sidePanel.close({ windowId: w.id }).catch(() => undefined)),
    );
  });
}

type SidePanelApi = {
  chrome: {
    windows: { getAll(): Promise<{ id: number }[]> };
    sidePanel: { close(options: { windowId: number }): Promise<void> };
  };
};

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

/**
 * Clicks the chip of a badge that has no room for its card (a phone, a small frame) and returns
 * the side panel's page that the click opened, showing that badge.
 */
export async function detailsInSidePanel(
  badge: BadgeTarget,
  serviceWorker: Worker,
  extensionId: string,
): Promise<Page> {
  await forgetPanelTarget(serviceWorker);
  await clickBadgeButton(badge, "expand", { whenReady: false });
  await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
  const target = await panelTarget(serviceWorker);
  if (!target) throw new Error("no side panel target");
  const page = "mainFrame" in badge ? badge : badge.page();
  return openSidePanelPage(page.context(), extensionId, target);
}

/**
 * The addresses of the browser's own side panels open now (DevTools targets: Playwright lists
 * no side panel among its pages). A panel opened on a badge names its tab and frame.
 * @example expect(await openSidePanels(page)).toContain(`...sidepanel.html?tab=${tabId}&frame=0`)
 */
export async function openSidePanels(page: Page): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const { targetInfos } = (await session.send("Target.getTargets")) as {
      targetInfos: Array<{ type: string; url: string }>;
    };
    return targetInfos.map((t) => t.url).filter((url) => url.includes("/sidepanel.html"));
  } finally {
    await session.detach();
  }
}
