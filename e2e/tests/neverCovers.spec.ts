import { expect, test } from "../fixtures/test";
import { badgeBox, clickBadgeButton, expandBadge, readBadge, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { coveredControls, overlapArea } from "../helpers/overlap";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";
import {
  forgetPanelTarget,
  openSidePanelPage,
  openSidePanels,
  panelTarget,
} from "../helpers/sidePanel";

// The badge never covers the page: neither the field it speaks about nor any control the person
// may need next. Measured by bounding boxes against every visible control of the page.

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const other = "0x52908400098527886E0F7030069857D2E4169EE7";
const pages = [
  { name: "send form", path: "form.html", field: "#to" },
  { name: "dApp", path: "", field: "#to" },
] as const;

for (const { name, path, field } of pages) {
  test(`${name} at 1440x900: the chip and the card cover neither the field nor a control`, async ({
    context,
    dappUrl,
  }) => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
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
    expect(card.x + card.width).toBeLessThanOrEqual(1440);
    expect(card.y + card.height).toBeLessThanOrEqual(900);
    expect(await coveredControls(page, "card", [`input${field}`])).toEqual([]);
    await screenshot(page, `card-${name.replace(" ", "-")}-1440x900`);
    await page.close();
  });

  test(`${name} at 360x640: no room for the card, so its details open in the side panel and only the chip stays, covering nothing`, async ({
    context,
    dappUrl,
    extensionId,
    serviceWorker,
  }) => {
    await forgetPanelTarget(serviceWorker);
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto(`${dappUrl}${path}`);
    await pasteInto(page, field, address);
    await waitForBadge(page, (b) => b.visible && b.chip !== null);
    const fieldBox = await page.locator(field).boundingBox();
    if (!fieldBox) throw new Error("the field is not on screen");

    // The person clicks the chip: the browser's side panel opens on this tab and frame.
    await clickBadgeButton(page, "expand", { whenReady: false });
    await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
    const target = await panelTarget(serviceWorker);
    if (!target) throw new Error("no side panel target");
    // The browser's own side panel opened, on this tab's badge.
    await expect
      .poll(() => openSidePanels(page))
      .toContain(
        `chrome-extension://${extensionId}/sidepanel.html?tab=${target.tabId}&frame=${target.frameId}`,
      );
    // In the page, only the chip: it covers neither the field nor any control.
    const badge = await readBadge(page);
    expect(badge.expanded).toBe(false);
    expect(overlapArea(await badgeBox(page, "chip"), fieldBox)).toBe(0);
    expect(await coveredControls(page, "chip", [`input${field}`])).toEqual([]);
    await screenshot(page, `side-panel-page-${name.replace(" ", "-")}-360x640`);

    // The panel (opened here as a page of the panel's width) shows the card of that badge.
    const panel = await openSidePanelPage(context, extensionId, target);
    const card = panel.getByTestId("side-panel");
    await expect(card.getByTestId("short-address")).toHaveText(
      `${address.slice(0, 6)}…${address.slice(-4)}`,
    );
    await expect(card.getByRole("button", { name: "Check $0.01" })).toBeVisible();
    const widths = await panel.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await screenshot(panel, `side-panel-${name.replace(" ", "-")}-360x640`);

    // It follows the badge: a new address in the field shows in the panel.
    await page.locator(field).fill("");
    await pasteInto(page, field, other);
    await expect(card.getByTestId("short-address")).toHaveText(
      `${other.slice(0, 6)}…${other.slice(-4)}`,
    );
    // The full address wraps inside the panel's card, with a copy control beside it.
    await card.locator('summary[data-action="address-details"]').click();
    await expect(card.getByTestId("address")).toHaveText(other);
    await expect(card.getByRole("button", { name: "Copy address" })).toBeVisible();
    await panel.close();
    await page.close();
  });
}

test("the card's details move into the side panel from the card, on a wide screen too", async ({
  context,
  dappUrl,
  serviceWorker,
}) => {
  await forgetPanelTarget(serviceWorker);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${dappUrl}form.html`);
  await pasteInto(page, "#to", address);
  await expandBadge(page);
  await clickBadgeButton(page, "side-panel", { whenReady: false });
  await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
  await waitForBadge(page, (b) => !b.expanded && b.chip !== null);
  await page.close();
});

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
