import { test as base, expect } from "@playwright/test";
import { extensionDir } from "../extensionDir";
import { launchChromiumWithExtension } from "../fixtures/launchChromium";
import { serveDapp } from "../fixtures/serveDapp";
import { waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";

// When the extension reloads or updates, the content scripts already in pages lose their
// extension: WXT invalidates their context, and everything tied to it goes (the badge's host
// and shadow root, its listeners, observers and timers). This test reloads the extension, so it
// runs in a Chromium of its own: the shared one keeps its service worker for the other tests.
base(
  "reloading the extension removes the badge from open pages and stops listening to them",
  async () => {
    const browser = await launchChromiumWithExtension(extensionDir);
    const dapp = await serveDapp();
    try {
      const page = await browser.context.newPage();
      await page.goto(dapp.url);
      await pasteInto(page, dappFields.input, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
      await waitForBadge(page, (b) => b.visible);
      const hosts = () => page.evaluate(() => document.querySelectorAll("presend-badge").length);
      expect(await hosts()).toBe(1);

      await browser.serviceWorker
        .evaluate(() =>
          (
            globalThis as unknown as { chrome: { runtime: { reload(): void } } }
          ).chrome.runtime.reload(),
        )
        .catch(() => undefined);
      // The badge's field follower notices the lost extension on its next tick and tears down.
      await expect.poll(hosts, { timeout: 10_000 }).toBe(0);

      // Nothing still listens: a new paste in the old page gets no badge from the old script (a
      // reloaded extension does not inject itself into pages that were already open).
      await page.locator(dappFields.input).fill("");
      await pasteInto(page, dappFields.input, "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA");
      await page.waitForTimeout(1_000);
      expect(await hosts()).toBe(0);
    } finally {
      await dapp.close();
      await browser.close().catch(() => undefined);
    }
  },
);
