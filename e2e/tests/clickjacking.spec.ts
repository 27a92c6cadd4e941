import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import type { TestWallet } from "../fixtures/testWallet";
import { clickBadgeButton, finished, readBadge, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { balances, payerAndPayTo } from "../helpers/paidCheck";

// Clickjacking: the page cannot click the badge itself (closed root, untrusted clicks), so it
// tries to make a person click it without seeing it. A page element over the badge with
// pointer-events: none lets the real click through to a paid button the person cannot see;
// opacity on <html> fades the badge; a transform on <html> slides it under the cursor. The
// badge accepts a paid click only once IntersectionObserver v2 has seen it uncovered, and it
// has stayed put, for half a second.

const refusedText = "presend's badge was covered or hidden; click refused. Nothing was charged.";

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

/** A pasted address with its badge on screen, seen uncovered long enough for a paid click. */
async function readyBadge(page: Page, address: string): Promise<void> {
  await pasteInto(page, dappFields.input, address);
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
// how the badge must refuse that click.
const attacks = [
  {
    name: "a page element over the badge (pointer-events: none) gets a person's click refused: no signature, no payment",
    route: "check",
    // IOv2 reports the cover within its 100 ms delay; the badge then says a click would not count.
    attack: coverBadge,
    reportsNotReady: true,
    code: "hidden",
    refusal: (text: string | undefined) => expect(text).toBe(refusedText),
  },
  {
    name: "a page fading the badge (opacity on <html>) gets a person's click refused: no signature, no payment",
    route: "deep",
    attack: (page: Page) =>
      page.evaluate(() => {
        document.documentElement.style.opacity = "0.02";
      }),
    reportsNotReady: true,
    code: "hidden",
    refusal: (text: string | undefined) => expect(text).toBe(refusedText),
  },
  {
    name: "a page sliding the badge under the cursor (transform on <html>) gets the click refused",
    route: "check",
    // No scroll, no resize: only the click itself can notice that the badge moved.
    attack: (page: Page) =>
      page.evaluate(() => {
        document.documentElement.style.transform = "translate(0, 40px)";
      }),
    reportsNotReady: false,
    code: "moved",
    refusal: (text: string | undefined) =>
      expect(text).toContain("had just appeared or moved; click refused"),
  },
] as const;

for (const { name, route, attack, reportsNotReady, code, refusal } of attacks) {
  test(name, async ({ api, dapp, wallet, serviceWorker }) => {
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);
    await readyBadge(dapp, activeEoa(api.world));

    await attack(dapp);
    if (reportsNotReady) await waitForBadge(dapp, (b) => !b.clickReady);
    await clickBadgeButton(dapp, route, { whenReady: false });

    // The click went through to the paid button, which refused it.
    const badge = await waitForBadge(dapp, (b) => b.state === "click-refused");
    expect(badge.code).toBe(code);
    refusal(badge.byTestId["click-refused"]);
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
  await waitForBadge(dapp, (b) => b.state === "click-refused");

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
