import { expect, test } from "../fixtures/test";
import { badgeBox, clickBadgeButton, onBadgeElement, waitForBadge } from "../helpers/badge";
import { demoAddress } from "../helpers/demo";
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

// Scrolls the card's body to its last element (as a person scrolling would) and measures.
const scrollToLast = `function () {
  let last = this;
  while (last.lastElementChild) last = last.lastElementChild;
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
    expect(card.y).toBeGreaterThanOrEqual(0);
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.y + card.height).toBeLessThanOrEqual(viewport.height);
    expect(card.x + card.width).toBeLessThanOrEqual(viewport.width);

    // "Copy report" is the primary action once there is a verdict, not another paid check.
    const classOf = (action: string) =>
      onBadgeElement<string>(dapp, action, "function () { return this.className; }", "data-action");
    expect(await classOf("copy")).toContain("primary");
    expect(await classOf("check")).not.toContain("primary");

    const reach = await onBadgeElement<Reach>(dapp, "card-body", scrollToLast);
    if (viewport.width === 360) expect(reach.scrolls).toBe(true);
    // After a verdict the paid buttons come last, below the result they would repeat.
    expect(reach.lastText).toContain("Deep check");
    expect(reach.last.bottom).toBeLessThanOrEqual(reach.region.bottom + 1);
    expect(reach.last.top).toBeGreaterThanOrEqual(reach.region.top - 1);
    expect(reach.last.bottom).toBeLessThanOrEqual(viewport.height);
    await screenshot(dapp, `deep-${viewport.width}x${viewport.height}-bottom`);

    // And "Copy report" takes a real click wherever the scroll left it.
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
  });
}
