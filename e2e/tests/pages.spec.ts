import { utcDay } from "@presend/extension/payments/utcDay";
import { expect, test } from "../fixtures/test";
import { lookalikeOf, randomAddress } from "../helpers/addresses";
import { readBadge, waitForBadge } from "../helpers/badge";
import { lowContrastTextFn } from "../helpers/contrast";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { setExtensionStorage } from "../helpers/extensionStorage";
import { levelColour } from "../helpers/paidCheck";
import { newBlankTab, openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";
import { expectSpentToday } from "../helpers/spentToday";

test("the popup shows the active tab's wallet and the recent results, newest first", async ({
  context,
  extensionId,
  serviceWorker,
  dapp,
}) => {
  await seedCheckedAddress(serviceWorker, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
  void dapp;
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await expect(popup.getByTestId("wallet-status")).toContainText("presend Test Wallet");
  await expect(popup.getByTestId("history")).toContainText(
    "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  );
  await popup.getByLabel("Address").fill("0xd8da000000000000000000000000000000006045");
  await expect(popup.getByTestId("lookalike")).toBeVisible();
  await popup
    .getByLabel("Address")
    .fill("0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045".replace("d8dA", "d8Da"));
  await expect(popup.getByTestId("local-status")).toHaveAttribute("data-status", "invalid");
  await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeDisabled();
  // What holds no address is answered too: a name, a short hex, an address an invisible
  // character splits. Nothing typed, nothing said.
  const valid = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
  const expected = "Not an address: expected 0x followed by 40 hexadecimal characters.";
  const invisible = "it holds an invisible character, copied along with it";
  for (const [text, says] of [
    ["vitalik.eth", expected],
    ["0x1234", expected],
    [`${valid.slice(0, 10)}\u200b${valid.slice(10)}`, invisible],
  ] as const) {
    await popup.getByLabel("Address").fill(text);
    const status = popup.getByTestId("local-status");
    await expect(status).toHaveAttribute("data-status", "malformed");
    await expect(status).toContainText("Not an address");
    await expect(status).toContainText(says);
    await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeDisabled();
  }
  await screenshot(popup, "popup-not-an-address");
  await popup.getByLabel("Address").fill("  ");
  await expect(popup.getByTestId("local-status")).toHaveCount(0);
});

test("the popup says so when the active tab has no wallet", async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  const popup = await openPopup(context, extensionId, await newBlankTab(serviceWorker));
  await expect(popup.getByTestId("wallet-status")).toContainText("No wallet in the active tab");
  await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeDisabled();
});

test("options: the cap and disabled sites are saved; the badge stays off on a disabled site", async ({
  context,
  extensionId,
  dapp,
}) => {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByTestId("no-key")).toBeVisible();
  await expect(options.locator("input[name=cap]")).toHaveValue("1.00");
  await options.locator("input[name=cap]").fill("0.50");
  await options.locator("textarea[name=sites]").fill("127.0.0.1");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(options.getByTestId("saved")).toBeVisible();
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
  await dapp.waitForTimeout(300);
  expect((await readBadge(dapp)).visible).toBe(false);
  await options.reload();
  await expect(options.locator("input[name=cap]")).toHaveValue("0.50");
});

test("a badge appears again once the site is enabled", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.input, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
  await waitForBadge(dapp, (b) => b.visible);
});

test("options: today's spend is shown against the daily cap", async ({
  context,
  extensionId,
  serviceWorker,
}) => {
  await setExtensionStorage(serviceWorker, {
    spendLedger: { day: utcDay(new Date()), spentUnits: 60_000 },
  });
  const options = await context.newPage();
  await options.setViewportSize({ width: 720, height: 720 });
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expectSpentToday(options, "$0.06 of $1.00 spent today (UTC). $0.94 left.");
  await expect(options.getByRole("meter")).toHaveAttribute("value", "60000");
  await screenshot(options, "options-spend-against-cap");
  await options.close();
});

test("the popup shows a history entry's full report when it is opened", async ({
  context,
  extensionId,
  serviceWorker,
  dapp,
}) => {
  void dapp;
  await seedCheckedAddress(serviceWorker, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 720 });
  const entry = popup.getByTestId("history-entry").first();
  await expect(entry.getByTestId("verdict-headline")).toBeHidden();
  await entry.locator("summary").first().click();
  await expect(entry.getByTestId("verdict-headline")).toBeVisible();
  await entry.locator('summary[data-action="details"]').click();
  await expect(entry.locator("tr[data-chain]").first()).toBeVisible();
  await popup.getByLabel("Address").fill("0x000000000000000000000000000000000000dEaD");
  await expect(popup.getByTestId("special")).toContainText("burn address");
  await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeDisabled();
  await screenshot(popup, "popup-history-and-free-danger");
});

// The person's light or dark setting, as the browser reports it (prefers-color-scheme).
const canvas = { light: "rgb(255, 255, 255)", dark: "rgb(17, 24, 39)" } as const;

for (const scheme of ["light", "dark"] as const) {
  test(`the popup and the options page in the ${scheme} scheme: the page, the fields and the verdict colours follow it, every text at 4.5:1 or more`, async ({
    context,
    extensionId,
    serviceWorker,
    dapp,
  }) => {
    void dapp;
    const known = randomAddress();
    await seedCheckedAddress(serviceWorker, known);
    const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
    await popup.emulateMedia({ colorScheme: scheme });
    await popup.setViewportSize({ width: 400, height: 900 });
    // A danger (a lookalike of the address checked before), an ok verdict and a caution pill.
    await popup.getByLabel("Address").fill(lookalikeOf(known));
    await expect(popup.getByTestId("lookalike")).toBeVisible();
    await popup.getByTestId("history-entry").locator("summary").first().click();
    await popup.locator('summary[data-action="details"]').click();
    await screenshot(popup, `popup-scheme-${scheme}`);
    // The whole window, not only the popup's box: a dark popup on a white canvas shows its edge.
    const page = await popup.evaluate(() => ({
      canvas: getComputedStyle(document.documentElement).backgroundColor,
      scheme: getComputedStyle(document.documentElement).colorScheme,
      field: getComputedStyle(document.querySelector("input") as Element).backgroundColor,
    }));
    expect(page).toEqual({ canvas: canvas[scheme], scheme, field: canvas[scheme] });
    await expect(popup.getByTestId("lookalike")).toHaveCSS(
      "background-color",
      levelColour("danger", scheme),
    );
    await expect(popup.getByTestId("verdict-decision")).toHaveCSS(
      "background-color",
      levelColour("ok", scheme),
    );
    expect(await popup.evaluate(`(${lowContrastTextFn}).call(document.body, 4.5)`)).toEqual([]);
    await popup.close();

    const options = await context.newPage();
    await options.emulateMedia({ colorScheme: scheme });
    await options.setViewportSize({ width: 720, height: 900 });
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await options.locator("input[name=cap]").fill("lots");
    await options.getByRole("button", { name: "Save" }).click();
    await expect(options.getByTestId("field-error")).toBeVisible();
    await screenshot(options, `options-scheme-${scheme}`);
    expect(
      await options.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
    ).toBe(canvas[scheme]);
    await expect(options.getByTestId("field-error")).toHaveCSS(
      "background-color",
      levelColour("danger", scheme),
    );
    expect(await options.evaluate(`(${lowContrastTextFn}).call(document.body, 4.5)`)).toEqual([]);
    await options.close();
  });
}
