import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import {
  clickBadgeButton,
  expandBadge,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { gate } from "../helpers/gate";
import { balances, pasteAndCheck, pasteAndClick, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// The card in each of its states, as a person meets it: paid buttons that look disabled while
// a click would not count yet, Escape and a click outside that close it whatever it shows, and
// a Cancel while the wallet is asked.

const disabled = (page: Page, action: string) =>
  onBadgeElement<boolean>(page, action, "function () { return this.disabled; }", "data-action");

/** Escape with the focus on the page (not in the badge, not in its field) closes the card. */
async function escapeFromThePage(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Escape");
  await waitForBadge(page, (b) => b.visible && !b.expanded);
}

/** A click on the page's heading, outside the card, closes it. */
async function clickOutside(page: Page): Promise<void> {
  await page.locator("h1").click();
  await waitForBadge(page, (b) => b.visible && !b.expanded);
}

test("the paid buttons look disabled until a click would count, then arm: no refusal for a normal click", async ({
  api,
  dapp,
}) => {
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await expandBadge(dapp);
  expect(await disabled(dapp, "check")).toBe(true);
  expect(await disabled(dapp, "deep")).toBe(true);
  const opacity = await onBadgeElement<string>(
    dapp,
    "check",
    "function () { return getComputedStyle(this).opacity; }",
    "data-action",
  );
  expect(Number(opacity)).toBeLessThan(1);
  await screenshot(dapp, "card-buttons-arming");
  // A person clicking at once meets a disabled button, not a red refusal.
  await clickBadgeButton(dapp, "check", { whenReady: false });
  expect((await readBadge(dapp)).byTestId["click-refused"]).toBeUndefined();
  await waitForBadge(dapp, (b) => b.clickReady);
  expect(await disabled(dapp, "check")).toBe(false);
});

test("Escape and a click outside close the card in every state: unchecked, waiting for the wallet, verdict, declined", async ({
  api,
  dapp,
  wallet,
}) => {
  const address = activeEoa(api.world);
  await pasteInto(dapp, "#to", address);
  await expandBadge(dapp);
  await escapeFromThePage(dapp);
  await expandBadge(dapp);
  await clickOutside(dapp);

  // Waiting for the wallet: closing the card leaves the check running, reopening shows it.
  const signature = gate();
  wallet.state.holdSignatures = signature.promise;
  await expandBadge(dapp);
  await clickBadgeButton(dapp, "check");
  await waitForBadge(dapp, (b) => b.state === "waiting-wallet");
  await escapeFromThePage(dapp);
  expect((await expandBadge(dapp)).state).toBe("waiting-wallet");
  await clickOutside(dapp);
  signature.open();
  wallet.state.holdSignatures = null;

  // The verdict.
  await waitForBadge(dapp, (b) => b.chip === "Looks fine to send", 30_000);
  await expandBadge(dapp);
  await escapeFromThePage(dapp);
  expect((await readBadge(dapp)).chip).toBe("Looks fine to send");
  await expandBadge(dapp);
  await clickOutside(dapp);

  // Declined in the wallet (another address: this one's verdict stays with its field).
  wallet.state.rejectSignatures = true;
  await pasteAndClick(dapp, randomAddress(), "check");
  await waitForBadge(dapp, (b) => b.state === "rejected", 30_000);
  await escapeFromThePage(dapp);
  await expandBadge(dapp);
  await clickOutside(dapp);
});

test("Cancel while the wallet is asked: nothing signed is sent, nothing charged, even if the wallet signs later", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const signature = gate();
  wallet.state.holdSignatures = signature.promise;
  await pasteAndClick(dapp, activeEoa(api.world), "check");
  await waitForBadge(dapp, (b) => b.state === "waiting-wallet");
  await screenshot(dapp, "card-waiting-wallet-with-cancel");
  await clickBadgeButton(dapp, "cancel");
  const cancelled = await waitForBadge(dapp, (b) => b.state === "rejected");
  expect(cancelled.text).toContain("You cancelled before signing. Nothing was charged.");

  // The person signs in the wallet after all: the signature is dropped, nothing is paid.
  signature.open();
  await dapp.waitForTimeout(1_500);
  expect(wallet.signRequests()).toHaveLength(1);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "history")).toBeUndefined();
  expect(await getExtensionStorage(serviceWorker, "pendingRecoveries")).toBeUndefined();
});

test("after a verdict, the paid check again costs a click on 'Check again'", async ({
  api,
  dapp,
}) => {
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.level).toBe("ok");
  expect(badge.text).toContain("Check again");
});

test("the card pays again after a check ended: a declined payment can be retried, and 'Check again' runs the deep check", async ({
  api,
  dapp,
  wallet,
}) => {
  const address = activeEoa(api.world);
  // Declined in the wallet: the buttons are offered again, and a second click asks again.
  wallet.state.rejectSignatures = true;
  const declined = await pasteAndCheck(dapp, address, "check");
  expect(declined.state).toBe("rejected");
  expect(wallet.signRequests()).toHaveLength(1);
  wallet.state.rejectSignatures = false;
  await clickBadgeButton(dapp, "check");
  const paid = await waitForBadge(dapp, (b) => b.level !== null, 30_000);
  expect(paid.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(2);

  // After a verdict, the deep check is under "Check again (pays again)": one more click pays.
  await clickBadgeButton(dapp, "check-again");
  await clickBadgeButton(dapp, "deep");
  const deep = await waitForBadge(dapp, (b) => "ethereum" in b.rows, 30_000);
  expect(deep.byTestId["verdict-age"]).toContain("(deep check)");
  expect(wallet.signRequests()).toHaveLength(3);
});
