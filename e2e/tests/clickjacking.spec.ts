import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import type { TestWallet } from "../fixtures/testWallet";
import {
  clickBadgeButton,
  expandBadge,
  finished,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// Clickjacking: the page cannot click the badge itself (closed root, untrusted clicks), so it
// tries to make a person click it without seeing it. A page element over the badge with
// pointer-events: none lets the real click through to a paid button the person cannot see;
// opacity on <html> fades the badge; a transform on <html> slides it under the cursor. The
// badge accepts a paid click only once IntersectionObserver v2 has seen it uncovered, and it
// has stayed put, for half a second.

/** Lays an opaque decoy over the whole viewport, above the badge, that clicks pass through. */
async function coverBadge(page: Page): Promise<void> {
  await page.evaluate(() => {
    const decoy = document.createElement("div");
    decoy.id = "decoy";
    decoy.textContent = "Click anywhere to claim your prize";
    decoy.style.cssText =
      "position:fixed;inset:0;z-index:2147483647;pointer-events:none;background:#fff;font-size:40px";
    // After the badge's host in <html>: same z-index, later in tree order, so painted above.
    document.documentElement.append(decoy);
  });
}

/** A pasted address with its card open, seen uncovered long enough for a paid click. */
async function readyBadge(page: Page, address: string): Promise<void> {
  await pasteInto(page, dappFields.input, address);
  await expandBadge(page);
  await waitForBadge(page, (b) => b.visible && b.status === "valid" && b.clickReady);
}

/** Nothing asked of the wallet, nothing paid, nothing recorded. */
async function expectNothingStarted(
  page: Page,
  wallet: TestWallet,
  check: { after: () => Promise<unknown>; before: unknown },
  serviceWorker: Parameters<typeof getExtensionStorage>[0],
): Promise<void> {
  await page.waitForTimeout(1_000);
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
  expect(await check.after()).toEqual(check.before);
  for (const key of ["history", "spendLedger"]) {
    expect(await getExtensionStorage(serviceWorker, key)).toBeUndefined();
  }
}

// Each attack: what the page does to the badge, which paid button the person then clicks, and
// how the badge must meet that click. Where the browser reports the cover (IOv2), the paid
// buttons are shown disabled: the click lands on a disabled button and starts nothing. Where
// only the click itself can notice (a transform moving the badge), the click is refused.
const attacks = [
  {
    name: "a page element over the badge (pointer-events: none) disables the paid buttons: a person's click starts nothing",
    route: "check",
    attack: coverBadge,
    reportsNotReady: true,
  },
  {
    name: "a page fading the badge (opacity on <html>) disables the paid buttons: a person's click starts nothing",
    route: "deep",
    attack: (page: Page) =>
      page.evaluate(() => {
        document.documentElement.style.opacity = "0.02";
      }),
    reportsNotReady: true,
  },
  {
    name: "a page sliding the badge under the cursor (transform on <html>): the click is refused or lands on a disabled button, nothing starts",
    route: "check",
    // No scroll, no resize: only the click itself can notice that the badge moved.
    attack: (page: Page) =>
      page.evaluate(() => {
        document.documentElement.style.transform = "translate(0, 40px)";
      }),
    reportsNotReady: false,
  },
] as const;

const disabled = (page: Page, action: string) =>
  onBadgeElement<boolean>(page, action, "function () { return this.disabled; }", "data-action");

for (const { name, route, attack, reportsNotReady } of attacks) {
  test(name, async ({ api, dapp, wallet, serviceWorker }) => {
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);
    await readyBadge(dapp, activeEoa(api.world));
    expect(await disabled(dapp, route)).toBe(false);

    await attack(dapp);
    if (reportsNotReady) {
      await waitForBadge(dapp, (b) => !b.clickReady);
      expect(await disabled(dapp, route)).toBe(true);
    }
    await clickBadgeButton(dapp, route, { whenReady: false });

    if (reportsNotReady) {
      // A disabled button takes no click: no refusal to read, nothing started.
      await dapp.waitForTimeout(300);
      const badge = await readBadge(dapp);
      expect(badge.state).toBeNull();
      expect(badge.byTestId["click-refused"]).toBeUndefined();
    } else {
      // The badge notices the move on its next frame (its paid buttons are then disabled for the
      // wait, so the click lands on a disabled button) or, if the click comes first, at the click
      // (refused, saying why). Which one depends on the frame timing; neither starts anything.
      await dapp.waitForTimeout(300);
      const badge = await readBadge(dapp);
      if (badge.state !== null) {
        expect(badge.state).toBe("click-refused");
        expect(badge.code).toBe("moved");
        expect(badge.byTestId["click-refused"]).toContain(
          "had just appeared or moved; click refused",
        );
      }
    }
    await expectNothingStarted(
      dapp,
      wallet,
      { before, after: () => balances(api, who) },
      serviceWorker,
    );
  });
}

test("once the cover is gone and the badge has been seen for half a second, a person's click pays normally", async ({
  api,
  dapp,
  wallet,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await readyBadge(dapp, activeEoa(api.world));
  await coverBadge(dapp);
  await waitForBadge(dapp, (b) => !b.clickReady);
  await clickBadgeButton(dapp, "check", { whenReady: false });
  expect(await disabled(dapp, "check")).toBe(true);

  await dapp.evaluate(() => document.getElementById("decoy")?.remove());
  // Just uncovered: not yet (IOv2 must first see it, then half a second must pass).
  expect((await readBadge(dapp)).clickReady).toBe(false);
  expect(wallet.signRequests()).toEqual([]);

  // The helper waits for data-click-ready, then clicks like a person.
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);
  expect(badge.level).toBe("ok");
  expect(badge.byTestId["click-refused"]).toBeUndefined();
  expect(wallet.signRequests()).toHaveLength(1);
  const after = await balances(api, who);
  expect(after.payer).toBe((before.payer ?? 0n) - 10_000n);
  expect(after.payTo).toBe((before.payTo ?? 0n) + 10_000n);
});

test("a page element over the badge cannot make a person's click turn presend off on its site", async ({
  api,
  dapp,
  serviceWorker,
}) => {
  // What a hostile site wants most is no warnings at all: "Turn presend off on <site>" is kept
  // in the settings for good. A click through a decoy must not reach it, as it reaches no paid button.
  await readyBadge(dapp, activeEoa(api.world));
  await coverBadge(dapp);
  await waitForBadge(dapp, (b) => !b.clickReady);
  await clickBadgeButton(dapp, "off-site", { whenReady: false });
  await dapp.waitForTimeout(1_000);
  const settings = (await getExtensionStorage(serviceWorker, "settings")) as
    | { disabledSites?: string[] }
    | undefined;
  expect(settings?.disabledSites ?? []).toEqual([]);
  expect((await readBadge(dapp)).visible).toBe(true);
});

// The host is an element of the page: a page script can rewrite its style attribute, where no
// stylesheet reaches. A mask or a transparent text fill there hides the badge from the person
// while IntersectionObserver v2 still reports it visible (it looks at neither), so the click on
// the invisible paid button counted.
test("a page script masking the badge's host gets the mask undone, and while it keeps trying no click counts", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await readyBadge(dapp, activeEoa(api.world));
  await dapp.evaluate(() => {
    const hide = () => {
      const host = document.querySelector("presend-badge") as HTMLElement;
      host.style.setProperty(
        "mask-image",
        "linear-gradient(transparent, transparent)",
        "important",
      );
      host.style.setProperty("-webkit-text-fill-color", "transparent", "important");
    };
    hide();
    setInterval(hide, 100);
  });
  await dapp.waitForTimeout(1_000);
  // What the page itself reads of the host: none of its styles stuck. The undo runs in the task
  // after the page's write, so a read that lands between the two can still see the mask: it is
  // read again until it is gone (it never would be if the page's style stuck).
  const seen = () =>
    dapp.evaluate(() => {
      const style = getComputedStyle(document.querySelector("presend-badge") as HTMLElement);
      return { mask: style.maskImage, textFill: style.webkitTextFillColor };
    });
  await expect
    .poll(seen, { intervals: [10, 20, 50], timeout: 5_000 })
    .toEqual({ mask: "none", textFill: expect.not.stringMatching(/^rgba\(0, 0, 0, 0\)$/) });
  await screenshot(dapp, "card-page-masks-host");
  expect((await readBadge(dapp)).clickReady).toBe(false);
  await clickBadgeButton(dapp, "check", { whenReady: false });
  await expectNothingStarted(
    dapp,
    wallet,
    { before, after: () => balances(api, who) },
    serviceWorker,
  );
});

// Custom property registrations are the document's and reach into closed shadow roots: a token
// registered as not inherited takes the page's initial value inside the badge. With the names
// in the extension's source (--accent, --ink, ...) the paid button was drawn transparent on the
// white card, and a click on it still counted.
test("a page registering the badge's custom properties (CSS.registerProperty) cannot draw its paid button transparent", async ({
  api,
  dapp,
}) => {
  await dapp.evaluate(() => {
    for (const name of ["--accent", "--ink", "--surface", "--line", "--muted", "--strong"]) {
      CSS.registerProperty({
        name,
        syntax: "<color>",
        inherits: false,
        initialValue: "transparent",
      });
    }
  });
  await readyBadge(dapp, activeEoa(api.world));
  const drawn = await onBadgeElement<{ background: string; color: string }>(
    dapp,
    "check",
    "function () { const s = getComputedStyle(this); return { background: s.backgroundColor, color: s.color }; }",
    "data-action",
  );
  // The accent (#1d4ed8) under white text, as on any page.
  expect(drawn).toEqual({ background: "rgb(29, 78, 216)", color: "rgb(255, 255, 255)" });
  await screenshot(dapp, "card-page-registers-properties");
});
