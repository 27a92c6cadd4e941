import type { Page } from "@playwright/test";

/**
 * Stops the extension's service worker, as Chrome stops an idle one (or a restart ends it): the
 * next event (a message, the popup) starts it again from nothing but storage.
 * @example await stopBackground(dapp);
 */
export async function stopBackground(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.stopAllWorkers");
  await cdp.detach();
}
