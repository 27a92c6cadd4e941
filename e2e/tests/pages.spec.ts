import { expect, test } from "../fixtures/test";
import { readBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { newBlankTab, openPopup, tabWithWallet } from "../helpers/popup";
import { seedCheckedAddress } from "../helpers/seedHistory";

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
