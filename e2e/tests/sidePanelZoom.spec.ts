import type { Locator, Page } from "@playwright/test";
import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import { getAddress } from "viem";
import { expect, test } from "../fixtures/test";
import { closedPort, lookalikeOf, randomAddress } from "../helpers/addresses";
import { readBadge, waitForBadge } from "../helpers/badge";
import { lowContrastTextFn } from "../helpers/contrast";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionSettings, setExtensionStorage } from "../helpers/extensionStorage";
import { gate } from "../helpers/gate";
import { layoutProblemsFn } from "../helpers/layoutProblems";
import { levelColour } from "../helpers/paidCheck";
import { forgetPanelTarget, openSidePanelPage, panelTarget } from "../helpers/sidePanel";
import { tabbableNames, tabThrough } from "../helpers/tabThrough";
import { emulateZoom, type ZoomedPage } from "../helpers/zoom";

// The browser's side panel at 100% and 200% zoom, in the states a person meets there. On a
// 1920 × 1080 screen at 200% the dApp's page has no room for the card beside its field, so the
// chip's click opens the details in the side panel: driven here exactly so, and the panel's page
// (which Playwright cannot reach in the browser's own panel) opened at the panel's size. Chromium
// sizes the panel in screen pixels whatever the zoom: a 360 px panel at 200% lays its page out in
// 180 CSS pixels, one a person widened to 720 px in 360.

// The narrowest once more in the dark scheme (the person's setting, which the panel follows).
const panels = [
  { percent: 100, width: 360, scheme: "light" },
  { percent: 200, width: 720, scheme: "light" },
  { percent: 200, width: 360, scheme: "light" },
  { percent: 200, width: 360, scheme: "dark" },
] as const;
// The panel's height: a 1080 px screen less the browser's tab strip and toolbar.
const panelHeight = 960;

/**
 * What the panel shows now is all there for a reader: nothing past an edge or cut, no sideways
 * scroll, every text at 4.5:1 or more against what is behind it, and `mustSee` (the decision and the one next action) whole in the window without
 * scrolling. Saves test-results/screens/<name>.png first, so a failure can be looked at.
 */
async function expectReadable(
  panel: Page,
  zoomed: ZoomedPage,
  name: string,
  mustSee: Locator[],
): Promise<void> {
  await zoomed.screenshot(name);
  expect(
    await panel.evaluate(
      `(${layoutProblemsFn}).call(document.querySelector("[data-testid=side-panel]"))`,
    ),
  ).toEqual([]);
  const page = await panel.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(page.scrollWidth).toBeLessThanOrEqual(page.clientWidth);
  expect(await panel.evaluate(`(${lowContrastTextFn}).call(document.body, 4.5)`)).toEqual([]);
  for (const element of mustSee) await expect(element).toBeInViewport({ ratio: 1 });
  // The header's short address is read at a glance: its two ends on one line, never split.
  expect(await lineCount(panel.getByTestId("short-address"))).toBe(1);
}

/** How many lines the element's text takes (one box per line its text runs over). */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
}

/** Every control of the panel is reached by Tab, in order, and brought into view once focused. */
async function expectKeyboardReachesAll(panel: Page): Promise<void> {
  const expected = await tabbableNames(panel);
  const reached = await tabThrough(panel, expected.length + 2);
  expect(reached.map((r) => r.name)).toEqual(expected);
  expect(reached.filter((r) => !r.inView)).toEqual([]);
}

const background = (element: Locator) =>
  element.evaluate((e) => getComputedStyle(e).backgroundColor);

for (const { percent, width, scheme } of panels) {
  const cssWidth = Math.round(width / (percent / 100));
  const dark = scheme === "dark" ? "-dark" : "";
  const name = `side-panel-zoom-${percent}-${width}${dark}`;
  test(`the side panel ${width} px wide at ${percent}% zoom (${cssWidth} CSS px${dark && ", dark scheme"}): free facts, paid button, a check in progress, a verdict and a failure, all readable and reached by Tab`, async ({
    api,
    dapp,
    context,
    extensionId,
    serviceWorker,
    wallet,
  }) => {
    // The person paid for a check of `known` before: its lookalike is a danger by free facts.
    const known = randomAddress();
    await setExtensionStorage(serviceWorker, {
      history: [exampleHistoryEntry({ address: known, checkedAt: new Date() })],
    });
    await forgetPanelTarget(serviceWorker);
    // The dApp on a 1920 × 1080 screen at 200%: 960 × 480 CSS pixels, no room beside the field.
    await emulateZoom(dapp, { width: 1920, height: panelHeight, percent: 200 });
    const lookalike = lookalikeOf(known);
    await pasteInto(dapp, "#to", lookalike);
    await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
    // Tab to the chip and press Enter, a person's gesture: the extension opens the side panel.
    await dapp.keyboard.press("Tab");
    await dapp.keyboard.press("Enter");
    await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
    const target = await panelTarget(serviceWorker);
    if (!target) throw new Error("no side panel target");
    expect((await readBadge(dapp)).expanded).toBe(false);

    const panel = await openSidePanelPage(context, extensionId, target, {
      width: cssWidth,
      height: Math.round(panelHeight / (percent / 100)),
    });
    await panel.emulateMedia({ colorScheme: scheme });
    const zoomed = await emulateZoom(panel, { width, height: panelHeight, percent });
    expect(await panel.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      scheme,
    );
    const card = panel.getByTestId("side-panel");
    const decision = card.getByTestId("local-decision");
    // The card is the panel's page: edge to edge, no width lost to a margin or frame.
    await expect(decision).toBeVisible();
    const fill = await card.getByTestId("card").evaluate((e) => ({
      card: e.getBoundingClientRect().width,
      panel: document.documentElement.clientWidth,
    }));
    expect(fill.card).toBe(fill.panel);

    // 1. Free facts, danger: a lookalike of an address the person used.
    await expect(decision).toHaveAttribute("data-level", "danger");
    await expect(decision.locator(".decision-title")).toHaveText("Don't send");
    await expect(card.getByTestId("lookalike")).toContainText("A lookalike address.");
    expect(await background(decision)).toBe(levelColour("danger", scheme));
    const remove = card.getByRole("button", { name: "Remove the address" });
    // Shot once the paid buttons armed (half a second after the address showed), as read.
    const check = card.getByRole("button", { name: "Check $0.01" });
    await expect(check).toBeEnabled();
    await expectReadable(panel, zoomed, `${name}-free-danger`, [
      decision.locator(".decision-title"),
      remove,
    ]);
    await expectKeyboardReachesAll(panel);

    // 2. Free facts, caution (no checksum), and the paid check as the next action.
    const address = activeEoa(api.world);
    await dapp.locator("#to").fill("");
    await pasteInto(dapp, "#to", address.toLowerCase());
    await expect(card.getByTestId("short-address")).toHaveText(
      `${address.slice(0, 6).toLowerCase()}…${address.slice(-4).toLowerCase()}`,
    );
    await expect(decision).toHaveAttribute("data-level", "caution");
    await expect(decision.locator(".decision-title")).toHaveText("Check with the recipient");
    expect(await background(decision)).toBe(levelColour("caution", scheme));
    await expect(check).toBeEnabled();
    await expectReadable(panel, zoomed, `${name}-free-caution`, [
      decision.locator(".decision-title"),
      check,
    ]);
    await expectKeyboardReachesAll(panel);

    // 3. The check in progress: the wallet is asked to sign, Cancel is offered.
    const signature = gate();
    wallet.state.holdSignatures = signature.promise;
    await check.click();
    const waiting = card.locator("[data-state=waiting-wallet]");
    await expect(waiting).toBeVisible({ timeout: 20_000 });
    await expectReadable(panel, zoomed, `${name}-waiting-wallet`, [
      card.getByTestId("payment-terms"),
      card.getByRole("button", { name: "Cancel" }),
    ]);
    wallet.state.holdSignatures = null;
    signature.open();

    // 4. The verdict: ok, in its colour, with "Done".
    const level = card.getByTestId("verdict-level");
    await expect(level).toHaveText("OK", { timeout: 30_000 });
    const verdict = card.getByTestId("verdict-decision");
    await expect(verdict.locator(".decision-title")).toHaveText("Looks fine to send");
    expect(await background(verdict)).toBe(levelColour("ok", scheme));
    await expectReadable(panel, zoomed, `${name}-verdict-ok`, [
      verdict.locator(".decision-title"),
      card.getByRole("button", { name: "Done" }),
    ]);
    await expectKeyboardReachesAll(panel);

    // 5. A failure: the API cannot be reached. Nothing charged, and the settings one click away.
    await setExtensionSettings(serviceWorker, {
      apiUrl: `http://127.0.0.1:${await closedPort()}`,
    });
    const other = getAddress(randomAddress());
    await dapp.locator("#to").fill("");
    await pasteInto(dapp, "#to", other);
    await expect(card.getByTestId("short-address")).toHaveText(
      `${other.slice(0, 6)}…${other.slice(-4)}`,
    );
    await expect(check).toBeEnabled();
    await check.click();
    const failed = card.locator("[data-state=failed]");
    await expect(failed).toBeVisible({ timeout: 20_000 });
    await expect(failed).toContainText("Nothing was charged.");
    await expectReadable(panel, zoomed, `${name}-failed`, [
      failed,
      card.getByRole("button", { name: "Open settings" }),
    ]);
    await expectKeyboardReachesAll(panel);
    await panel.close();
  });
}
