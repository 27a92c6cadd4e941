import { expect, test } from "../fixtures/test";
import {
  badgeBox,
  clickBadgeButton,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { demoAddress } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { overlapArea } from "../helpers/overlap";
import { pasteAndCheck } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import {
  closeBrowserSidePanel,
  forgetPanelTarget,
  openSidePanelPage,
  panelTarget,
} from "../helpers/sidePanel";

// A deep result is the longest card: five chains, flags, findings, gas and "Copy report". The
// card keeps a max height and scrolls inside, so every part is reachable on a phone and a laptop.

type Reach = {
  scrolls: boolean;
  last: { top: number; bottom: number };
  region: { top: number; bottom: number };
  lastText: string;
};

// Scrolls the card's body to its last rendered element (as a person scrolling would) and measures.
const scrollToLast = `function () {
  let last = this;
  for (;;) {
    const shown = [...last.children].filter((child) => child.checkVisibility());
    if (shown.length === 0) break;
    last = shown[shown.length - 1];
  }
  last.scrollIntoView({ block: "end" });
  const r = last.getBoundingClientRect();
  const region = this.getBoundingClientRect();
  return {
    scrolls: this.scrollHeight > this.clientHeight,
    last: { top: r.top, bottom: r.bottom },
    region: { top: region.top, bottom: region.bottom },
    lastText: last.textContent,
  };
}`;

for (const viewport of [{ width: 1280, height: 720 }]) {
  test(`a deep result at ${viewport.width}x${viewport.height}: the card fits the screen and every part scrolls into view`, async ({
    api,
    dapp,
  }) => {
    await dapp.setViewportSize(viewport);
    const demo = demoAddress(api.world, "eoa-active-on-arbitrum-only");
    const badge = await pasteAndCheck(dapp, demo.address, "deep");
    expect(badge.level).toBe("warn");
    await screenshot(dapp, `deep-${viewport.width}x${viewport.height}-top`);

    const card = await badgeBox(dapp, "card");
    // Tall as a deep result is, the card never covers the field it speaks about.
    const field = await dapp.locator("#to").boundingBox();
    if (!field) throw new Error("the field is not on screen");
    expect(overlapArea(card, field)).toBe(0);
    expect(card.y).toBeGreaterThanOrEqual(0);
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.y + card.height).toBeLessThanOrEqual(viewport.height);
    expect(card.x + card.width).toBeLessThanOrEqual(viewport.width);

    // The primary action is a decision once there is a verdict, not another paid check and not
    // "Copy report" (which waits in the details).
    const classOf = (action: string) =>
      onBadgeElement<string>(dapp, action, "function () { return this.className; }", "data-action");
    expect(await classOf("done")).toContain("primary");
    expect(await classOf("check")).not.toContain("primary");
    expect(await classOf("copy")).not.toContain("primary");

    const reach = await onBadgeElement<Reach>(dapp, "card-body", scrollToLast);
    // After a verdict the paid buttons come last, folded under "Check again (pays again)":
    // below the result they would repeat, and no longer an invitation; only the card's own
    // links (side panel, off on this site) follow.
    expect(reach.lastText).toContain("Turn presend off on");
    const text = (await readBadge(dapp)).text;
    expect(text.indexOf("Check again (pays again)")).toBeGreaterThan(text.indexOf("Done"));
    expect(text.indexOf("Check again (pays again)")).toBeLessThan(text.indexOf("Turn presend off"));
    expect(reach.last.bottom).toBeLessThanOrEqual(reach.region.bottom + 1);
    expect(reach.last.top).toBeGreaterThanOrEqual(reach.region.top - 1);
    expect(reach.last.bottom).toBeLessThanOrEqual(viewport.height);
    await screenshot(dapp, `deep-${viewport.width}x${viewport.height}-bottom`);

    // The technical details open on a click: the table and "Copy report", which takes a real
    // click wherever the scroll left it.
    await onBadgeElement(
      dapp,
      "details",
      "function () { this.scrollIntoView({ block: 'nearest' }); }",
      "data-action",
    );
    await clickBadgeButton(dapp, "details");
    await onBadgeElement(
      dapp,
      "copy",
      "function () { this.scrollIntoView({ block: 'nearest' }); }",
      "data-action",
    );
    const copy = await badgeBox(dapp, "copy", "data-action");
    expect(copy.y).toBeGreaterThanOrEqual(card.y);
    expect(copy.y + copy.height).toBeLessThanOrEqual(viewport.height);
    await clickBadgeButton(dapp, "copy");
    await waitForBadge(dapp, (b) => b.text.includes("Copied"));

    // The flags stay readable: a column at laptop width, a line of their own under the row they
    // mark on a phone; either way every flag lies inside the card, none squeezed or cut.
    const flagBoxes = await onBadgeElement<Array<{ left: number; right: number; width: number }>>(
      dapp,
      "card-body",
      `function () {
        return [...this.querySelectorAll(".flag")]
          .filter((flag) => flag.checkVisibility())
          .map((flag) => { const r = flag.getBoundingClientRect(); return { left: r.left, right: r.right, width: r.width }; });
      }`,
    );
    expect(flagBoxes.length).toBeGreaterThanOrEqual(3);
    for (const box of flagBoxes) {
      expect(box.left).toBeGreaterThanOrEqual(card.x);
      expect(box.right).toBeLessThanOrEqual(card.x + card.width);
      expect(box.width).toBeGreaterThan(40);
    }
    const table = await onBadgeElement<{ scrollWidth: number; clientWidth: number }>(
      dapp,
      "card-body",
      `function () { const w = this.querySelector(".table-wrap"); return { scrollWidth: w.scrollWidth, clientWidth: w.clientWidth }; }`,
    );
    expect(table.scrollWidth).toBeLessThanOrEqual(table.clientWidth + 1);
    await onBadgeElement(
      dapp,
      "card-body",
      "function () { this.querySelector('table').scrollIntoView({ block: 'start' }); }",
    );
    await screenshot(dapp, `deep-${viewport.width}x${viewport.height}-table`);
  });
}

test("a deep result at 360x640 is read in the side panel: paid from the panel, it fits the panel's width and every part scrolls into view", async ({
  api,
  dapp,
  context,
  extensionId,
  serviceWorker,
}) => {
  await forgetPanelTarget(serviceWorker);
  await dapp.setViewportSize({ width: 360, height: 640 });
  const demo = demoAddress(api.world, "eoa-active-on-arbitrum-only");
  await pasteInto(dapp, "#to", demo.address);
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  // No room for the card on a phone: the chip's click opens the side panel.
  await clickBadgeButton(dapp, "expand", { whenReady: false });
  await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
  const target = await panelTarget(serviceWorker);
  if (!target) throw new Error("no side panel target");
  expect((await readBadge(dapp)).expanded).toBe(false);

  const panel = await openSidePanelPage(context, extensionId, target);
  const card = panel.getByTestId("side-panel");
  const deep = card.getByRole("button", { name: "Deep check $0.05" });
  await expect(deep).toBeEnabled();
  await deep.click();
  await expect(card.getByTestId("verdict-level")).toHaveText("Warning", { timeout: 30_000 });
  // The page's chip shows the verdict too: the panel acted on the badge.
  await waitForBadge(dapp, (b) => b.chip?.startsWith("Check with the recipient") ?? false);
  await screenshot(panel, "deep-side-panel-360x640-top");

  const widths = await panel.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    view: innerWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  await expect(card.locator("button.primary")).toHaveText("Done");
  await card
    .getByRole("button", { name: "Turn presend off on 127.0.0.1" })
    .scrollIntoViewIfNeeded();
  await expect(
    card.getByRole("button", { name: "Turn presend off on 127.0.0.1" }),
  ).toBeInViewport();
  await card.locator('summary[data-action="details"]').click();
  await card.locator("table").scrollIntoViewIfNeeded();
  await screenshot(panel, "deep-side-panel-360x640-table");
  await panel.close();
  await closeBrowserSidePanel(serviceWorker);
});
