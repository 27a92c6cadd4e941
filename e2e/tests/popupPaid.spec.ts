import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { activeEoa } from "../helpers/demo";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";

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
  await expect(popup.getByTestId("wallet-status")).toContainText(wallet.account.address);

  const active = activeEoa(api.world);
  await popup.getByLabel("Address").fill(active);
  await popup.getByRole("button", { name: "Check $0.01" }).click();
  await expect(popup.getByTestId("verdict-level")).toHaveText("ok");

  const fresh = randomAddress();
  await popup.getByLabel("Address").fill(fresh);
  await popup.getByRole("button", { name: "Deep check $0.05" }).click();
  await expect(popup.getByTestId("verdict-level")).toHaveText("caution");

  const items = popup.getByTestId("history").locator("li");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText(`${fresh} on base (deep)`);
  await expect(items.nth(1)).toContainText(`${active} on base (check)`);
  expect(wallet.signRequests()).toHaveLength(2);
  const after = await balances(api, who);
  expect(after.payer).toBe((before.payer ?? 0n) - 60_000n);
  expect(after.payTo).toBe((before.payTo ?? 0n) + 60_000n);
});
