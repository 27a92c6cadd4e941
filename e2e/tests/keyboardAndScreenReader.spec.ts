import type { Page } from "@playwright/test";
import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import {
  badgeFocus,
  expandBadge,
  onBadgeElement,
  readBadge,
  tabToBadgeControl,
  waitForBadge,
} from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionStorage } from "../helpers/extensionStorage";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";

// The badge, the card and the popup used without a mouse, and as a screen reader meets them:
// the focus is never dropped on the page's body, the ring shows on every control, and a paid
// check's news is read out wherever the focus is.

const ring = "solid 2px rgb(29, 78, 216)";

test("keyboard only: Tab to the chip, open the card, pay with Enter; the focus stays in the card, the verdict is read out, Escape goes back to the chip", async ({
  api,
  dapp,
}) => {
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await waitForBadge(dapp, (b) => b.visible);
  await dapp.keyboard.press("Tab");
  expect(await badgeFocus(dapp)).toEqual({ name: "expand", outline: ring });
  await dapp.keyboard.press("Enter");
  await waitForBadge(dapp, (b) => b.expanded && b.clickReady);
  expect((await badgeFocus(dapp))?.name).toBe("collapse");

  await tabToBadgeControl(dapp, "check");
  await dapp.keyboard.press("Enter");
  // The button that had the focus is disabled while the check runs: the focus waits on the card.
  await waitForBadge(dapp, (b) => b.level === "ok", 30_000);
  expect((await badgeFocus(dapp))?.name).toBe("card");
  expect((await readBadge(dapp)).byTestId.announcement).toContain("Looks fine to send");
  await screenshot(dapp, "card-keyboard-verdict");

  // Tab goes on from the card to its controls; the disclosures show the same ring.
  await tabToBadgeControl(dapp, "details");
  expect((await badgeFocus(dapp))?.outline).toBe(ring);
  await dapp.keyboard.press("Enter");
  await waitForBadge(dapp, (b) => "base" in b.rows);
  await screenshot(dapp, "card-keyboard-details-open");

  await dapp.keyboard.press("Escape");
  await waitForBadge(dapp, (b) => b.visible && !b.expanded);
  expect(await badgeFocus(dapp)).toEqual({ name: "expand", outline: ring });
  // Collapsed, the badge still holds its news for a screen reader.
  expect((await readBadge(dapp)).byTestId.announcement).toContain("Looks fine to send");
});

test("keyboard only in the popup: address, chain, Check; the focus stays with the result, which is read out as a status", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
}) => {
  void dapp;
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  const address = popup.getByLabel("Address");
  await expect(popup.getByTestId("wallet-status")).toContainText("presend Test Wallet");
  for (
    let press = 0;
    press < 6 && !(await address.evaluate((e) => e === document.activeElement));
    press++
  ) {
    await popup.keyboard.press("Tab");
  }
  await expect(address).toBeFocused();
  await popup.keyboard.type(activeEoa(api.world));
  await popup.keyboard.press("Tab");
  const chain = popup.getByRole("combobox", { name: "Chain to check" });
  await expect(chain).toBeFocused();
  await popup.keyboard.press("ArrowDown");
  await expect(chain).toHaveValue("ethereum");
  await popup.keyboard.press("ArrowUp");
  await expect(chain).toHaveValue("base");
  await popup.keyboard.press("Tab");
  await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeFocused();
  await popup.keyboard.press("Enter");

  const status = popup.getByRole("status");
  await expect(status.getByTestId("verdict-level")).toHaveText("OK", { timeout: 30_000 });
  await expect(status).toContainText("Looks fine to send");
  await expect(popup.getByTestId("result-region")).toBeFocused();
  await popup.setViewportSize({ width: 420, height: 720 });
  await screenshot(popup, "popup-keyboard-result");
});

test("a finding whose words hold a long name with no break wraps inside the card, which never scrolls sideways", async ({
  dapp,
  serviceWorker,
}) => {
  const address = randomAddress();
  const entry = exampleHistoryEntry({ address, checkedAt: new Date() });
  const name = "VeryLongTokenNameWithoutAnyBreak".repeat(4);
  // The deciding finding heads the verdict; the long one is listed under it.
  entry.level = "caution";
  entry.report.verdict.level = "caution";
  entry.report.verdict.reasons = [
    {
      code: "history_unknown",
      level: "caution",
      message: "Your payment history could not be read.",
    },
    { code: "first_time_recipient", level: "caution", message: `You never paid ${name} before.` },
  ];
  await setExtensionStorage(serviceWorker, { history: [entry] });
  await pasteInto(dapp, "#to", address);
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.level === "caution" && "first_time_recipient" in b.reasons);
  const overflow = await onBadgeElement<number>(
    dapp,
    "card-body",
    "function () { return this.scrollWidth - this.clientWidth; }",
  );
  await screenshot(dapp, "card-long-finding");
  expect(overflow).toBeLessThanOrEqual(0);
});

// The heading levels of `page` in document order (h1 = 1).
const headingLevels = (page: Page) =>
  page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((found) => found.map((h) => Number(h.localName[1])));

test("the popup and the options page each open with one h1, and their headings never skip a level", async ({
  context,
  extensionId,
  serviceWorker,
  dapp,
}) => {
  void dapp;
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await expect(popup.getByRole("heading", { level: 1 })).toHaveText("presend");
  await expect(popup.getByRole("heading", { name: "Recent results", level: 2 })).toBeVisible();
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByRole("heading", { level: 1 })).toHaveText("presend options");
  await expect(options.getByRole("heading", { name: "Spent today", level: 2 })).toBeVisible();
  for (const page of [popup, options]) {
    const levels = await headingLevels(page);
    expect(levels[0]).toBe(1);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    levels.forEach((level, index) => {
      if (index > 0) expect(level).toBeLessThanOrEqual((levels[index - 1] ?? 0) + 1);
    });
  }
  await options.close();
  await popup.close();
});

test("options: a help text and an error are read with the input they are about, and the focus goes to the value to fix", async ({
  context,
  extensionId,
}) => {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const deposit = options.getByRole("textbox", { name: "Channel deposit (USD)" });
  await expect(deposit).toHaveAccessibleDescription(/your wallet signs this deposit once/);
  const cap = options.getByRole("textbox", { name: "Daily spending cap (USD)" });
  await expect(cap).toHaveValue("1.00");
  await cap.fill("a dollar");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(cap).toBeFocused();
  await expect(cap).toHaveAttribute("aria-invalid", "true");
  await expect(cap).toHaveAccessibleDescription(
    "The cap must be a dollar amount, like 5, 7.50 or 7,50, with no thousands separator.",
  );
  await expect(options.getByRole("alert")).toHaveText(
    "Not saved: the daily spending cap needs fixing.",
  );
  await expect(options.getByTestId("saved")).toBeHidden();

  await cap.fill("1.00");
  await deposit.fill("-1");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(deposit).toBeFocused();
  await expect(deposit).toHaveAccessibleDescription(
    /^The channel deposit must be a dollar amount, like 5, 7\.50 or 7,50, with no thousands separator\. Where the server offers a payment channel/,
  );
  await expect(cap).not.toHaveAttribute("aria-invalid");
  await screenshot(options, "options-field-error");

  const apiUrl = options.getByRole("textbox", { name: "API server URL" });
  await deposit.fill("0.05");
  await apiUrl.fill("not an address");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(apiUrl).toBeFocused();
  await expect(apiUrl).toHaveAccessibleDescription(
    "The API server URL must be a full address (https://…).",
  );
  await apiUrl.fill("http://127.0.0.1:9");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(options.getByTestId("saved")).toBeVisible();
  await expect(options.getByRole("alert")).toHaveCount(0);
  await expect(apiUrl).not.toHaveAccessibleDescription(/must be/);
  await options.close();
});
