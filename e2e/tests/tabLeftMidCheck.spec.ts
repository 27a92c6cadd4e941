import type { Page, Worker } from "@playwright/test";
import { devnetPrivateKey } from "@presend/devnet";
import type { HistoryEntry, PendingRecovery } from "@presend/extension/storage/schemas";
import { openDapp } from "../fixtures/openDapp";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import { gate } from "../helpers/gate";
import {
  afterCharge,
  balances,
  pasteAndCheck,
  pasteAndClick,
  pasteAndClickUntilWalletAsks,
  payerAndPayTo,
} from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";

// The tab whose card (or the popup, paying with that tab's wallet) started a paid check reloads,
// goes to another site or is closed while the check runs. The background goes on alone: what it
// charged must be what the person can see or fetch afterwards (the popup's history, the card's
// verdict when the address is entered again), nothing may be asked of a page the person did not
// click in, and the daily cap counts only what was paid.

const price = 10_000n;
const deposit = 50_000n;

async function stored<T>(serviceWorker: Worker, key: string): Promise<T[]> {
  return ((await getExtensionStorage(serviceWorker, key)) ?? []) as T[];
}

/** What the daily cap counts today, in USDC base units. */
async function spentUnits(serviceWorker: Worker): Promise<number> {
  const ledger = (await getExtensionStorage(serviceWorker, "spendLedger")) as
    | { spentUnits: number }
    | undefined;
  return ledger?.spentUnits ?? 0;
}

type StoredBalance = { channelId: string; deposited: string; charged: string };

/**
 * Enters `address` in the (reloaded) dApp's empty field as a person coming back does, and opens
 * the card once its chip shows the paid verdict kept from before (`chip`).
 */
async function verdictShownAgain(page: Page, address: string, chip: string) {
  await page.bringToFront();
  await pasteInto(page, dappFields.input, address);
  await waitForBadge(page, (b) => b.visible && b.chip === chip);
  const card = await expandBadge(page);
  expect(card.byTestId["verdict-age"]).toBe("Checked on Base just now");
  return card;
}

/** The same dApp, with its wallet, on another site (localhost instead of 127.0.0.1). */
function otherSite(page: Page): string {
  const url = new URL("/", page.url());
  url.hostname = "localhost";
  return url.toString();
}

test("exact: the page reloads while the price is asked; the reloaded page's wallet is asked nothing and nothing is charged", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const priceAnswer = gate();
  proxy.holdUnpaid = priceAnswer.promise;
  await pasteAndClick(dapp, randomAddress(), "check");
  await expect.poll(() => proxy.held, { timeout: 20_000 }).toBe(1);
  await dapp.reload();
  proxy.holdUnpaid = null;
  priceAnswer.open();
  // The background hears the price and would ask for the signature now.
  await expect.poll(() => proxy.held).toBe(0);
  await dapp.waitForTimeout(3_000);
  expect(wallet.signRequests()).toHaveLength(0);
  expect(await balances(api, who)).toEqual(before);
  expect(await stored<PendingRecovery>(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await stored<HistoryEntry>(serviceWorker, "history")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);

  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, next.text).toBe("caution");
  expect(wallet.signRequests()).toHaveLength(1);
  expect(await spentUnits(serviceWorker)).toBe(Number(price));
});

test("exact from the popup: the tab goes to another site while the price is asked; that site's wallet is asked nothing, the popup says nothing was paid", async ({
  api,
  context,
  extensionId,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.getByLabel("Address").fill(randomAddress());
  const priceAnswer = gate();
  proxy.holdUnpaid = priceAnswer.promise;
  await popup.getByRole("button", { name: "Check $0.01" }).click();
  await expect.poll(() => proxy.held, { timeout: 20_000 }).toBe(1);
  await dapp.goto(otherSite(dapp));
  proxy.holdUnpaid = null;
  priceAnswer.open();

  const outcome = popup.getByTestId("result");
  await expect(outcome).toContainText("Nothing was charged", { timeout: 20_000 });
  await expect(outcome).toContainText(
    "The page you paid from was closed, reloaded or left before your wallet signed",
  );
  await popup.setViewportSize({ width: 420, height: 700 });
  await screenshot(popup, "popup-page-left-before-signing");
  await popup.close();
  expect(wallet.signRequests()).toHaveLength(0);
  expect(await balances(api, who)).toEqual(before);
  expect(await stored<PendingRecovery>(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);
});

test("exact: the page reloads while the wallet asks; the signature given afterwards pays nothing, the cap counts nothing, the next check pays once", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const sign = await pasteAndClickUntilWalletAsks(dapp, wallet, randomAddress(), "check");
  await dapp.reload();
  // The person signs in the wallet after the page went: the signature has nowhere to go.
  sign();
  await dapp.waitForTimeout(2_000);
  expect(await balances(api, who)).toEqual(before);
  expect(await stored<PendingRecovery>(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await stored<HistoryEntry>(serviceWorker, "history")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);

  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, next.text).toBe("caution");
  expect(wallet.signRequests()).toHaveLength(2);
  expect(await balances(api, who)).toEqual(afterCharge(before, price));
  expect(await spentUnits(serviceWorker)).toBe(Number(price));
});

test("exact: the tab is closed while the wallet asks; nothing is charged or counted, and a new tab's check pays once", async ({
  api,
  context,
  dapp,
  dappUrl,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const sign = await pasteAndClickUntilWalletAsks(dapp, wallet, randomAddress(), "check");
  await dapp.close();
  sign();
  await expect.poll(async () => (await stored(serviceWorker, "pendingRecoveries")).length).toBe(0);
  expect(await balances(api, who)).toEqual(before);
  expect(await stored<HistoryEntry>(serviceWorker, "history")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);

  const again = await openDapp(context, wallet, dappUrl);
  try {
    const next = await pasteAndCheck(again, randomAddress(), "check");
    expect(next.level, next.text).toBe("caution");
    expect(await balances(api, who)).toEqual(afterCharge(before, price));
    expect(await spentUnits(serviceWorker)).toBe(Number(price));
  } finally {
    await again.close();
  }
});

test("exact from the popup: the tab is closed while the wallet asks; the popup says the page was left before signing, nothing charged or counted", async ({
  api,
  context,
  extensionId,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.getByLabel("Address").fill(randomAddress());
  const decision = gate();
  wallet.state.holdSignatures = decision.promise;
  await popup.getByRole("button", { name: "Check $0.01" }).click();
  await expect.poll(() => wallet.signRequests().length, { timeout: 20_000 }).toBe(1);
  await dapp.close();
  wallet.state.holdSignatures = null;
  decision.open();

  const outcome = popup.getByTestId("result");
  await expect(outcome).toContainText("Nothing was charged", { timeout: 20_000 });
  // The wallet was there and was asked; the tab it lived in went away before it signed.
  await expect(outcome).toContainText("closed, reloaded or left before your wallet signed");
  await expect(outcome).not.toContainText("No wallet");
  await popup.setViewportSize({ width: 420, height: 700 });
  await screenshot(popup, "popup-tab-closed-while-signing");
  await popup.close();
  expect(await balances(api, who)).toEqual(before);
  expect(await stored<PendingRecovery>(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await stored<HistoryEntry>(serviceWorker, "history")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);
});

test("exact: the page reloads after signing, the payment on its way; the charge is in the popup's history and the card shows the verdict again", async ({
  api,
  context,
  extensionId,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const target = randomAddress();
  const onItsWay = gate();
  proxy.holdPaid = onItsWay.promise;
  await pasteAndClick(dapp, target, "check");
  await expect.poll(() => proxy.held, { timeout: 20_000 }).toBe(1);
  await dapp.reload();
  proxy.holdPaid = null;
  onItsWay.open();

  await expect
    .poll(async () => (await stored(serviceWorker, "history")).length, { timeout: 20_000 })
    .toBe(1);
  const [entry] = await stored<HistoryEntry>(serviceWorker, "history");
  expect(entry).toMatchObject({ address: target, amount: String(price), level: "caution" });
  expect(await stored(serviceWorker, "pendingRecoveries")).toEqual([]);
  // What the chain moved is what the history shows, once.
  expect(await balances(api, who)).toEqual(afterCharge(before, price));
  expect(await spentUnits(serviceWorker)).toBe(Number(price));

  // Back on the page: the address entered again shows the paid verdict, without paying again.
  const card = await verdictShownAgain(dapp, target, "Check with the recipient");
  expect(card.level).toBe("caution");
  await screenshot(dapp, "exact-page-reloaded-after-signing-card");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await expect(popup.getByTestId("history").locator("li")).toHaveCount(1);
  await expect(popup.getByTestId("recoveries")).toHaveCount(0);
  await popup.setViewportSize({ width: 420, height: 700 });
  await screenshot(popup, "exact-page-reloaded-after-signing-popup");
  await popup.close();
  expect(wallet.signRequests()).toHaveLength(1);
  expect(await balances(api, who)).toEqual(afterCharge(before, price));
});

test("exact: the tab is closed while the server answers a settled payment; the report is in the popup's history, charged once", async ({
  api,
  context,
  extensionId,
  dapp,
  dappUrl,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const target = randomAddress();
  const answer = gate();
  proxy.holdPaidAnswer = answer.promise;
  await pasteAndClick(dapp, target, "deep");
  await expect.poll(() => proxy.held, { timeout: 30_000 }).toBe(1);
  // Settled on chain before the answer comes back.
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 50_000n);
  await dapp.close();
  proxy.holdPaidAnswer = null;
  answer.open();

  await expect
    .poll(async () => (await stored(serviceWorker, "history")).length, { timeout: 20_000 })
    .toBe(1);
  const [entry] = await stored<HistoryEntry>(serviceWorker, "history");
  expect(entry).toMatchObject({ address: target, amount: "50000", route: "deep" });
  expect(await stored(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(50_000);

  const again = await openDapp(context, wallet, dappUrl);
  try {
    const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
    await expect(popup.getByTestId("history").locator("li")).toHaveCount(1);
    await expect(popup.getByTestId("history")).toContainText("(deep check)");
    await popup.setViewportSize({ width: 420, height: 700 });
    await screenshot(popup, "exact-tab-closed-after-settlement-popup");
    await popup.close();
  } finally {
    await again.close();
  }
  expect(await balances(api, who)).toEqual(afterCharge(before, 50_000n));
});

test("channel: the page reloads while the deposit is asked; nothing is deposited or counted, and the next check opens the channel once", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-tab-left-deposit"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  const sign = await pasteAndClickUntilWalletAsks(dapp, wallet, randomAddress(), "check");
  await dapp.reload();
  sign();
  await dapp.waitForTimeout(2_000);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart);
  expect(await stored(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await stored(serviceWorker, "channelBalances")).toEqual([]);
  expect(await spentUnits(serviceWorker)).toBe(0);

  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, next.text).toBe("caution");
  await waitForBadge(
    dapp,
    (b) => b.byTestId["channel-balance"]?.includes("$0.04 of $0.05 left") === true,
  );
  expect(wallet.signRequests()).toHaveLength(2);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);
  expect(await spentUnits(serviceWorker)).toBe(Number(deposit));
});

test("channel: the page reloads while a voucher is on its way; the report is in the history, the balance is true, the payee is paid once per check", async ({
  api,
  context,
  extensionId,
  dapp,
  wallet,
  serviceWorker,
  startSibling,
  startProxy,
}) => {
  test.setTimeout(90_000);
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-tab-left-voucher"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  const payToAtStart = await api.usdcOnBase(channels.payTo);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [opened] = await stored<StoredBalance>(serviceWorker, "channelBalances");

  const target = randomAddress();
  const onItsWay = gate();
  proxy.holdPaid = onItsWay.promise;
  await pasteAndClick(dapp, target, "check");
  await expect.poll(() => proxy.held, { timeout: 20_000 }).toBe(1);
  await dapp.reload();
  proxy.holdPaid = null;
  onItsWay.open();
  await expect
    .poll(async () => (await stored(serviceWorker, "history")).length, { timeout: 20_000 })
    .toBe(2);
  expect((await stored<HistoryEntry>(serviceWorker, "history"))[0]).toMatchObject({
    address: target,
    amount: String(price),
  });
  expect(await stored(serviceWorker, "pendingRecoveries")).toEqual([]);
  expect(await stored<StoredBalance>(serviceWorker, "channelBalances")).toMatchObject([
    { channelId: opened?.channelId, deposited: String(deposit), charged: String(2n * price) },
  ]);

  // Back on the page: the verdict and the balance as they are; the popup says the same.
  await verdictShownAgain(dapp, target, "Check with the recipient");
  // The card reads the channel's balance from storage once it opens: waited for, not raced.
  await waitForBadge(
    dapp,
    (b) => b.byTestId["channel-balance"]?.includes("$0.03 of $0.05 left") === true,
  );
  await screenshot(dapp, "channel-page-reloaded-voucher-card");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await expect(popup.getByTestId("history").locator("li")).toHaveCount(2);
  await expect(popup.getByTestId("channel-balance")).toContainText("$0.03 of $0.05 left");
  await popup.setViewportSize({ width: 420, height: 800 });
  await screenshot(popup, "channel-page-reloaded-voucher-popup");
  await popup.close();

  // The next check pays from the same channel with no wallet prompt.
  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.byTestId["channel-balance"]).toContain("$0.02 of $0.05 left");
  await screenshot(dapp, "channel-page-reloaded-next-check-card");
  expect(wallet.signRequests()).toHaveLength(1);
  await channels.claimChannels();
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 3n * price);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);
});
