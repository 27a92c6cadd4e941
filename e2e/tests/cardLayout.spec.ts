import { expect, test } from "../fixtures/test";
import { badgeBox, clickBadgeButton, onBadgeElement, waitForBadge } from "../helpers/badge";
import { demoAddress } from "../helpers/demo";
import { overlapArea } from "../helpers/overlap";
import { pasteAndCheck } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

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

for (const viewport of [
  { width: 360, height: 640 },
  { width: 1280, height: 720 },
]) {
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
    // below the result they would repeat, and no longer an invitation.
    expect(reach.lastText).toContain("Check again (pays again)");
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
