import { expect, test } from "../fixtures/test";
import {
  badgeBox,
  clickBadgeButton,
  expandBadge,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { coveredControls, overlapArea } from "../helpers/overlap";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";

// The badge never covers the page: neither the field it speaks about nor any control the person
// may need next. Measured by bounding boxes against every visible control of the page.

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const pages = [
  { name: "send form", path: "form.html", field: "#to" },
  { name: "dApp", path: "", field: "#to" },
] as const;

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 360, height: 640 },
]) {
  for (const { name, path, field } of pages) {
    test(`${name} at ${viewport.width}x${viewport.height}: the chip and the card cover neither the field nor a control`, async ({
      context,
      dappUrl,
    }) => {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${dappUrl}${path}`);
      await pasteInto(page, field, address);
      await waitForBadge(page, (b) => b.visible && b.chip !== null);
      const fieldBox = await page.locator(field).boundingBox();
      if (!fieldBox) throw new Error("the field is not on screen");
      expect(overlapArea(await badgeBox(page, "chip"), fieldBox)).toBe(0);
      expect(await coveredControls(page, "chip", [`input${field}`])).toEqual([]);

      await expandBadge(page);
      const card = await badgeBox(page, "card");
      expect(overlapArea(card, fieldBox)).toBe(0);
      expect(card.x + card.width).toBeLessThanOrEqual(viewport.width);
      expect(card.y + card.height).toBeLessThanOrEqual(viewport.height);
      await screenshot(page, `card-${name.replace(" ", "-")}-${viewport.width}x${viewport.height}`);
      if (name === "send form" && viewport.width === 360) {
        // The full address wraps inside the card, with a copy control beside it.
        await clickBadgeButton(page, "address-details");
        const wrapped = await onBadgeElement<{ scroll: number; client: number }>(
          page,
          "address",
          "function () { return { scroll: this.scrollWidth, client: this.clientWidth }; }",
        );
        expect(wrapped.scroll).toBeLessThanOrEqual(wrapped.client);
        expect((await readBadge(page)).text).toContain("Copy address");
      }
      const covered = await coveredControls(page, "card", [`input${field}`]);
      if (viewport.width > 400) expect(covered).toEqual([]);
      else
        test
          .info()
          .annotations.push({ type: "covered on a phone", description: covered.join(", ") });
      await page.close();
    });
  }
}

test("the popup fits a 360 px screen, a verdict with its table included", async ({
  context,
  extensionId,
  serviceWorker,
  dapp,
}) => {
  void dapp;
  await seedCheckedAddress(serviceWorker, address);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 360, height: 640 });
  await popup.getByLabel("Address").fill(address);
  await popup.getByTestId("result").locator('summary[data-action="details"]').click();
  await expect(popup.getByTestId("result").locator("tr[data-chain=base]")).toBeVisible();
  const widths = await popup.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  await screenshot(popup, "popup-360-verdict");
});
