import type { BrowserContext, Worker } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { readBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { seedCheckedAddress } from "../helpers/seedHistory";

type ChromeTabs = {
  chrome: {
    tabs: {
      query(q: object): Promise<Array<{ id: number }>>;
      create(p: object): Promise<{ id: number }>;
      sendMessage(id: number, m: object): Promise<{ ok: boolean; data?: { available?: boolean } }>;
    };
  };
};

// Without the "tabs" permission the extension cannot see tab URLs; the dApp tab is the one
// whose content script reports a wallet.
async function tabWithWallet(serviceWorker: Worker): Promise<number> {
  return serviceWorker.evaluate(async () => {
    const { chrome } = globalThis as unknown as ChromeTabs;
    for (const tab of await chrome.tabs.query({})) {
      const reply = await chrome.tabs
        .sendMessage(tab.id, { presend: 1, type: "wallet.info", data: {} })
        .catch(() => null);
      if (reply?.ok && reply.data?.available) return tab.id;
    }
    throw new Error("no tab with a wallet");
  });
}

async function newBlankTab(serviceWorker: Worker): Promise<number> {
  return serviceWorker.evaluate(async () => {
    const { chrome } = globalThis as unknown as ChromeTabs;
    return (await chrome.tabs.create({ url: "about:blank", active: false })).id;
  });
}

async function openPopup(context: BrowserContext, extensionId: string, tabId: number) {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
  return popup;
}

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
