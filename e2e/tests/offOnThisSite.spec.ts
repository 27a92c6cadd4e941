import { expect, test } from "../fixtures/test";
import { clickBadgeButton, expandBadge, readBadge, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage, setExtensionStorage } from "../helpers/extensionStorage";
import { screenshot } from "../helpers/screenshot";

// "Off on this site" is one click from the chip (its card), kept in the settings per site, and
// undone where the settings are.

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

test("off on this site from the chip's card: the badge goes, stays gone after a reload, and comes back when the site is taken off the list", async ({
  context,
  dappUrl,
  serviceWorker,
}) => {
  const site = new URL(dappUrl).hostname;
  const page = await context.newPage();
  await page.goto(`${dappUrl}form.html`);
  await pasteInto(page, "#to", address);
  await expandBadge(page);
  // The line takes a click once the badge has been seen uncovered, as the paid buttons do.
  await waitForBadge(page, (b) => b.clickReady);
  await screenshot(page, "card-off-on-this-site");
  expect((await readBadge(page)).text).toContain(`Turn presend off on ${site}`);
  await clickBadgeButton(page, "off-site", { whenReady: true });
  await waitForBadge(page, (b) => !b.visible);

  const settings = (await getExtensionStorage(serviceWorker, "settings")) as {
    disabledSites: string[];
  };
  expect(settings.disabledSites).toEqual([site]);

  await page.reload();
  await pasteInto(page, "#to", address);
  await page.waitForTimeout(500);
  expect((await readBadge(page)).visible).toBe(false);

  // Taken off the list (the options page does this): the badge is back on the next address.
  await setExtensionStorage(serviceWorker, { settings: { ...settings, disabledSites: [] } });
  await page.locator("#to").fill("");
  await pasteInto(page, "#to", address);
  await waitForBadge(page, (b) => b.visible && b.chip !== null);
  await page.close();
});
