import { generatePrivateKey } from "viem/accounts";
import { attachOtherWallet } from "../fixtures/attachOtherWallet";
import { attachTestWallet } from "../fixtures/attachTestWallet";
import { expect, test } from "../fixtures/test";
import { createTestWallet } from "../fixtures/testWallet";
import { clickBadgeButton, expandBadge, finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// A person with two wallet extensions: both announce themselves to every page (EIP-6963), in an
// order neither the person nor the site chooses. The site sends from the one it is connected to,
// so that one pays for the check and its account is the sender whose history is read; the card
// names it, and tells how to pay with another.

const otherInfo = {
  uuid: "0b7e2d8c-5a41-4f3e-9c6d-1e2f3a4b5c6d",
  name: "Other Wallet",
  rdns: "com.example.otherwallet",
};

/** The dApp with the person's wallet and another one, announced first unless held back. */
async function openWithTwoWallets(
  context: import("@playwright/test").BrowserContext,
  wallet: ReturnType<typeof createTestWallet>,
  other: ReturnType<typeof createTestWallet>,
  url: string,
  options: { announceAfterMs?: number } = {},
) {
  const page = await context.newPage();
  await attachTestWallet(page, wallet);
  await attachOtherWallet(page, other, otherInfo, options);
  await page.goto(url);
  return page;
}

const asksOf = (wallet: ReturnType<typeof createTestWallet>, methods: string[]) =>
  wallet.requests.filter((r) => methods.includes(r.method));

test("the wallet the site is connected to pays, not the one announced first", async ({
  context,
  api,
  wallet,
  dappUrl,
}) => {
  const other = createTestWallet({ privateKey: generatePrivateKey() });
  other.state.authorized = false;
  const page = await openWithTwoWallets(context, wallet, other, dappUrl);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  await pasteInto(page, "#to", activeEoa(api.world));
  await expandBadge(page);
  const card = await waitForBadge(page, (b) => "paying-wallet" in b.byTestId && b.clickReady);
  expect(card.byTestId["paying-wallet"]).toBe(
    "Checks are paid with presend Test Wallet, the wallet this site is connected to.",
  );
  expect(card.byTestId).not.toHaveProperty("wallet-connect");
  await screenshot(page, "card-two-wallets-connected-one-pays");

  await clickBadgeButton(page, "check");
  const done = await waitForBadge(page, finished, 30_000);
  expect(done.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
  // The other wallet was read (eth_accounts, no prompt) and asked for nothing.
  expect(asksOf(other, ["eth_requestAccounts", "eth_signTypedData_v4", "personal_sign"])).toEqual(
    [],
  );
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
  await page.close();
});

test("neither connected: the card names the other wallet, and connecting the site with it makes it pay", async ({
  context,
  api,
  wallet,
  dappUrl,
}) => {
  const other = createTestWallet({ privateKey: generatePrivateKey() });
  other.state.authorized = false;
  wallet.state.authorized = false;
  const page = await openWithTwoWallets(context, wallet, other, dappUrl);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  await pasteInto(page, "#to", activeEoa(api.world));
  await expandBadge(page);
  const card = await waitForBadge(page, (b) => "wallet-connect" in b.byTestId);
  expect(card.byTestId["wallet-connect"]).toContain(
    "Your wallet (Other Wallet) is not connected to this site.",
  );
  expect(card.byTestId["wallet-connect"]).toContain(
    "To pay with presend Test Wallet instead, connect this site with it",
  );
  await screenshot(page, "card-two-wallets-none-connected");

  // The person connects the site with the wallet they send from, with the site's own button.
  await page.evaluate(() =>
    (
      window as unknown as { testWalletProvider: { request(a: { method: string }): unknown } }
    ).testWalletProvider.request({ method: "eth_requestAccounts" }),
  );
  const switched = await waitForBadge(page, (b) => "paying-wallet" in b.byTestId && b.clickReady);
  expect(switched.byTestId["paying-wallet"]).toContain("presend Test Wallet");
  expect(switched.byTestId).not.toHaveProperty("wallet-connect");

  await clickBadgeButton(page, "check");
  const done = await waitForBadge(page, finished, 30_000);
  expect(done.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
  expect(asksOf(other, ["eth_requestAccounts", "eth_signTypedData_v4"])).toEqual([]);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
  await page.close();
});

test("a wallet connected to the site that announces itself late takes over from one that is not", async ({
  context,
  api,
  wallet,
  dappUrl,
}) => {
  const other = createTestWallet({ privateKey: generatePrivateKey() });
  wallet.state.authorized = false;
  const page = await openWithTwoWallets(context, wallet, other, dappUrl, {
    announceAfterMs: 4_000,
  });

  await pasteInto(page, "#to", activeEoa(api.world));
  await expandBadge(page);
  const early = await waitForBadge(page, (b) => "wallet-connect" in b.byTestId);
  expect(early.byTestId["wallet-connect"]).toContain("(presend Test Wallet)");
  const late = await waitForBadge(page, (b) => "paying-wallet" in b.byTestId, 15_000);
  expect(late.byTestId["paying-wallet"]).toBe(
    "Checks are paid with Other Wallet, the wallet this site is connected to.",
  );
  // Choosing asked nothing of the person: no connect prompt in either wallet.
  expect(asksOf(wallet, ["eth_requestAccounts"])).toEqual([]);
  expect(asksOf(other, ["eth_requestAccounts"])).toEqual([]);
  await page.close();
});

test("another wallet that never answers (locked, waiting for its password) holds up neither the card nor the payment", async ({
  context,
  api,
  wallet,
  dappUrl,
}) => {
  const other = createTestWallet({ privateKey: generatePrivateKey() });
  other.state.silentAccounts = true;
  const page = await openWithTwoWallets(context, wallet, other, dappUrl);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  await pasteInto(page, "#to", activeEoa(api.world));
  await expandBadge(page);
  const card = await waitForBadge(page, (b) => "paying-wallet" in b.byTestId && b.clickReady);
  expect(card.byTestId["paying-wallet"]).toContain("presend Test Wallet");
  await clickBadgeButton(page, "check");
  const done = await waitForBadge(page, finished, 30_000);
  expect(done.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
  await page.close();
});
