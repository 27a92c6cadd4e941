import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { activeEoa } from "../helpers/demo";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";

test("popup lookups are paid with the dApp tab's wallet, and the history lists them newest first", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
}) => {
  void dapp;
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  // A long value is shortened in its middle; the whole of it is in the title.
  const payer = wallet.account.address;
  await expect(popup.getByTestId("wallet-status")).toContainText(
    `${payer.slice(0, 6)}…${payer.slice(-4)}`,
  );
  await expect(popup.getByTestId("wallet-status")).toHaveAttribute("title", payer);

  const active = activeEoa(api.world);
  await popup.getByLabel("Address").fill(active);
  await popup.getByRole("button", { name: "Check $0.01" }).click();
  const result = popup.getByTestId("result");
  await expect(result.getByTestId("verdict-level")).toHaveText("OK");
  // The verdict is paid for: no paid button invites a second charge, "Check again" is folded.
  await expect(popup.getByRole("button", { name: "Check $0.01" })).toBeHidden();
  await expect(popup.getByTestId("check-again")).toContainText("Check again (pays again)");

  const fresh = randomAddress();
  await popup.getByLabel("Address").fill(fresh);
  await popup.getByRole("button", { name: "Deep check $0.05" }).click();
  await expect(result.getByTestId("verdict-level")).toHaveText("Caution");
  await expect(result).toHaveAttribute("data-address", fresh);

  await popup.setViewportSize({ width: 420, height: 900 });
  await screenshot(popup, "popup-deep-result");
  const items = popup.getByTestId("history").locator("li");
  await expect(items).toHaveCount(2);
  // Chains by their names, the address shortened in its middle, whole (with a copy control) inside.
  const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;
  await expect(items.nth(0)).toContainText(`${short(fresh)} on Base (deep check):`);
  await expect(items.nth(1)).toContainText(`${short(active)} on Base:`);
  await items.nth(1).locator("summary").first().click();
  await expect(items.nth(1).getByTestId("copyable")).toContainText(active);
  await expect(items.nth(1).getByRole("button", { name: "Copy address" })).toBeVisible();
  await items.nth(1).locator("summary").first().click();

  // The result belongs to the address and chain it was for: another chain or address hides it.
  await popup.getByTestId("chain").selectOption("arbitrum");
  await expect(result).toHaveCount(0);
  await popup.getByTestId("chain").selectOption("base");
  await expect(result.getByTestId("verdict-level")).toHaveText("Caution");
  // The first address's verdict is fresh (ten minutes): it is shown again, with its age.
  await popup.getByLabel("Address").fill(active);
  await expect(result).toHaveAttribute("data-address", active);
  await expect(result.getByTestId("verdict-age")).toHaveText("Checked on Base just now");

  // A history entry opens the full report it stored.
  await items.nth(1).locator("summary").first().click();
  const opened = items.nth(1).locator("details").first();
  await expect(opened.getByTestId("verdict-level")).toHaveText("OK");
  await opened.locator('summary[data-action="details"]').click();
  await expect(opened.locator("tr[data-chain=base]")).toBeVisible();
  await expect(opened.getByRole("button", { name: "Copy report" })).toBeVisible();
  await screenshot(popup, "popup-history-open");
  expect(wallet.signRequests()).toHaveLength(2);
  const after = await balances(api, who);
  expect(after.payer).toBe((before.payer ?? 0n) - 60_000n);
  expect(after.payTo).toBe((before.payTo ?? 0n) + 60_000n);
});
