import type { Locator } from "@playwright/test";
import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import { expect, test } from "../fixtures/test";
import { lookalikeOf, randomAddress } from "../helpers/addresses";
import { badgeFocus, onBadgeElement, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionStorage } from "../helpers/extensionStorage";
import { layoutProblemsFn } from "../helpers/layoutProblems";
import { newBlankTab, openPopup, tabWithWallet } from "../helpers/popup";
import { tabbableNames, tabThrough } from "../helpers/tabThrough";
import { emulateZoom } from "../helpers/zoom";

// The popup, the options page and the card at the browser's 200% zoom (and at 100%, to compare):
// nothing cut off or pushed past an edge, no sideways scroll, every control reached by Tab and
// scrolled into view when it is. A zoomed page lays out in a viewport half as wide and high.
// With the classic scrollbars a desktop draws: they take their width from the page, where 100vw
// does not see them (headless Chromium hides them unless asked).
test.use({ scrollbars: true });

for (const percent of [100, 200]) {
  test(`the popup at ${percent}% zoom: nothing cut off, no sideways scroll, every control reached`, async ({
    context,
    extensionId,
    serviceWorker,
    dapp,
  }) => {
    void dapp;
    const address = randomAddress();
    await setExtensionStorage(serviceWorker, {
      history: [exampleHistoryEntry({ address, checkedAt: new Date() })],
    });
    const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
    // The action popup is at most 800 × 600: at 200% its 400 CSS pixels of width fill it.
    const zoomed = await emulateZoom(popup, {
      width: 400 * (percent / 100),
      height: 600,
      percent,
    });
    await expect(popup.getByTestId("history")).toBeVisible();
    await popup.getByLabel("Address").fill(address);
    await expect(popup.getByTestId("verdict-age")).toBeVisible();
    // The history entry and its details open, as a reader would open them.
    await popup.getByTestId("history-entry").locator("summary").first().click();
    await zoomed.screenshot(`popup-zoom-${percent}`);
    expect(
      await popup
        .locator(".popup")
        .evaluate(`(${layoutProblemsFn}).call(document.querySelector(".popup"))`),
    ).toEqual([]);
    const expected = await tabbableNames(popup);
    const reached = await tabThrough(popup, expected.length + 2);
    expect(reached.map((r) => r.name)).toEqual(expected);
    expect(reached.filter((r) => !r.inView)).toEqual([]);
    await popup.close();
  });

  test(`the options page at ${percent}% zoom: nothing cut off, no sideways scroll, every control reached`, async ({
    context,
    extensionId,
  }) => {
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    const zoomed = await emulateZoom(options, { width: 1280, height: 720, percent });
    await expect(options.locator("input[name=cap]")).toHaveValue("1.00");
    await options.locator("input[name=cap]").fill("lots");
    await options.getByRole("button", { name: "Save" }).click();
    await expect(options.getByTestId("field-error")).toBeVisible();
    await options.evaluate(() => scrollTo(0, 0));
    await zoomed.screenshot(`options-zoom-${percent}`);
    expect(
      await options.evaluate(`(${layoutProblemsFn}).call(document.querySelector("form"))`),
    ).toEqual([]);
    const expected = await tabbableNames(options);
    const reached = await tabThrough(options, expected.length + 2);
    expect(reached.map((r) => r.name)).toEqual(expected);
    expect(reached.filter((r) => !r.inView)).toEqual([]);
    await options.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await zoomed.screenshot(`options-zoom-${percent}-end`);
    await options.close();
  });

  test(`the card at ${percent}% zoom: nothing cut off, no sideways scroll, every control reached`, async ({
    dapp,
    serviceWorker,
  }) => {
    const address = randomAddress();
    await setExtensionStorage(serviceWorker, {
      history: [exampleHistoryEntry({ address, checkedAt: new Date() })],
    });
    // A 2560 × 1440 window: at 200% the page has 1280 × 720 CSS pixels, room for the card beside
    // the field (with less, the details go to the side panel instead).
    const zoomed = await emulateZoom(dapp, { width: 2560, height: 1440, percent });
    await pasteInto(dapp, "#to", address);
    await waitForBadge(dapp, (b) => b.visible);
    await dapp.keyboard.press("Tab");
    await dapp.keyboard.press("Enter");
    await waitForBadge(dapp, (b) => b.expanded && b.level === "ok");
    const card = await onBadgeElement<string[]>(dapp, "card", layoutProblemsFn);
    expect(card).toEqual([]);
    // Tab from the collapse button through every control of the card, each scrolled into view.
    const reached: string[] = [];
    for (let press = 0; press < 20; press++) {
      const focus = await badgeFocus(dapp);
      if (!focus) break;
      reached.push(focus.name);
      const inView = await onBadgeElement<boolean>(
        dapp,
        "card-body",
        `function () {
          const active = this.getRootNode().activeElement;
          const body = this.getBoundingClientRect();
          const box = active.getBoundingClientRect();
          const inBody = !this.contains(active) || (box.top >= body.top - 1 && box.bottom <= body.bottom + 1);
          return inBody && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
        }`,
      );
      expect(inView, `${focus.name} is in view once focused`).toBe(true);
      if (focus.name === "details") {
        await dapp.keyboard.press("Enter");
        await waitForBadge(dapp, (b) => Object.keys(b.rows).length > 0);
      }
      await dapp.keyboard.press("Tab");
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        "collapse",
        "close",
        "done",
        "details",
        "address-details",
        "check-again",
      ]),
    );
    expect(await dapp.evaluate(() => document.activeElement?.id)).toBe("memo");
    await zoomed.screenshot(`card-zoom-${percent}`);
    expect(await onBadgeElement<string[]>(dapp, "card", layoutProblemsFn)).toEqual([]);
  });
}

// A person who zooms a narrow window: 200 CSS pixels across.
test.describe("at 200 CSS pixels", () => {
  test("the popup 200 CSS px wide (400 px at 200%): no sideways scroll, an address and its copy button on lines of their own", async ({
    context,
    extensionId,
    serviceWorker,
  }) => {
    const address = randomAddress();
    await setExtensionStorage(serviceWorker, {
      history: [exampleHistoryEntry({ address, checkedAt: new Date() })],
    });
    const popup = await openPopup(context, extensionId, await newBlankTab(serviceWorker));
    const zoomed = await emulateZoom(popup, { width: 400, height: 600, percent: 200 });
    await popup.getByLabel("Address").fill(lookalikeOf(address));
    await expect(popup.getByTestId("lookalike")).toBeVisible();
    await popup.getByTestId("history-entry").locator("summary").first().click();
    await zoomed.screenshot("popup-200-css-px");
    const window = await popup.evaluate(() => ({
      inner: innerWidth,
      client: document.documentElement.clientWidth,
    }));
    // The scrollbar is drawn (the page is taller than the window) and takes room from the page.
    expect(window.inner).toBe(200);
    expect(window.client).toBeLessThan(window.inner);
    expect(
      await popup.evaluate(`(${layoutProblemsFn}).call(document.querySelector(".popup"))`),
    ).toEqual([]);
    // The address reads in two lines, not squeezed beside its button into a column of a few.
    const copyable = popup.getByTestId("copyable");
    expect(await lineCount(copyable.locator(".mono"))).toBeLessThanOrEqual(2);
    await popup.close();
  });

  test("the options page 200 CSS px wide (400 px at 200%): no sideways scroll, every field usable", async ({
    context,
    extensionId,
  }) => {
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    const zoomed = await emulateZoom(options, { width: 400, height: 720, percent: 200 });
    await options.locator("input[name=cap]").fill("lots");
    await options.getByRole("button", { name: "Save" }).click();
    await expect(options.getByTestId("field-error")).toBeVisible();
    await options.evaluate(() => scrollTo(0, 0));
    await zoomed.screenshot("options-200-css-px");
    expect(
      await options.evaluate(`(${layoutProblemsFn}).call(document.querySelector("form"))`),
    ).toEqual([]);
    // The API address gets a line of its own rather than a sliver beside its label.
    const url = await options.locator("input[name=apiUrl]").boundingBox();
    expect(url?.width).toBeGreaterThan(150);
    // The checkbox stands at its label's first line, not halfway down a label of six.
    const [box, label] = await Promise.all([
      options.locator("input[name=checkAsPayer]").boundingBox(),
      options.locator(".checkbox-row > span").boundingBox(),
    ]);
    expect(Math.abs((box?.y ?? 0) - (label?.y ?? 0))).toBeLessThan(6);
    await options.close();
  });
});

/** How many lines the element's text takes (one box per line its text runs over). */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}
