import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page, Worker } from "@playwright/test";
import { devnetPrivateKey } from "@presend/devnet";
import { utcDay } from "@presend/extension/payments/utcDay";
import type { HistoryEntry, PendingRecovery } from "@presend/extension/storage/schemas";
import { hexToString } from "viem";
import { extensionDir } from "../extensionDir";
import { launchChromiumWithExtension } from "../fixtures/launchChromium";
import { openDapp } from "../fixtures/openDapp";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { clickBadgeButton, finished, waitForBadge } from "../helpers/badge";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import { pasteAndCheck, pasteAndClick } from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { expectSpentToday } from "../helpers/spentToday";
import { stopBackground } from "../helpers/stopBackground";

// The extension over an x402 batch-settlement channel: a server that offers channels beside
// exact (RECEIVER_AUTHORIZER_KEY set), the test wallet with the demo payer's key, the local Base
// chain with the escrow at its canonical address. The wallet signs one deposit; the background's
// session key signs a voucher per check, with no wallet prompt.

const price = 10_000n;
const deposit = 50_000n;

type StoredBalance = { channelId: string; deposited: string; charged: string; payer: string };

async function storedBalances(serviceWorker: Worker): Promise<StoredBalance[]> {
  return ((await getExtensionStorage(serviceWorker, "channelBalances")) ?? []) as StoredBalance[];
}

/** Typed-data signature requests the wallet saw, by primary type. */
function signedTypes(wallet: { signRequests(): { params: unknown }[] }): string[] {
  return wallet
    .signRequests()
    .map(
      (r) =>
        (JSON.parse((r.params as string[])[1] ?? "{}") as { primaryType?: string }).primaryType ??
        "",
    );
}

/** A page's own attempts, from the MAIN world, to make the extension pay without a click. */
async function hostilePage(page: Page): Promise<{ runtime: boolean }> {
  return page.evaluate(() => {
    const start = {
      presend: 1,
      type: "check.start",
      data: {
        session: "f".repeat(32),
        route: "check",
        address: "0x".padEnd(42, "1"),
        chain: "base",
      },
    };
    window.postMessage(start, "*");
    window.dispatchEvent(new CustomEvent("presend:check", { detail: start }));
    const host = document.querySelector("presend-badge");
    for (const type of ["pointerdown", "mousedown", "mouseup", "click"]) {
      host?.dispatchEvent(new MouseEvent(type, { bubbles: true, composed: true }));
    }
    (host as HTMLElement | null)?.click();
    const chrome = (window as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } })
      .chrome;
    return { runtime: typeof chrome?.runtime?.sendMessage === "function" };
  });
}

/** Evaluates `expression` in the content script's isolated world of the page's top frame. */
async function inContentScript(page: Page, expression: string): Promise<unknown> {
  const session = await page.context().newCDPSession(page);
  const contexts: { id: number; name: string; auxData?: { type?: string; isDefault?: boolean } }[] =
    [];
  session.on("Runtime.executionContextCreated", ({ context }) => contexts.push(context));
  await session.send("Runtime.enable");
  const isolated = contexts.find((c) => c.auxData?.type === "isolated" && c.name === "presend");
  if (!isolated) throw new Error("No presend content script world in the page.");
  const { result, exceptionDetails } = await session.send("Runtime.evaluate", {
    expression,
    contextId: isolated.id,
    awaitPromise: true,
    returnByValue: true,
  });
  await session.detach();
  if (exceptionDetails) return { threw: exceptionDetails.exception?.description ?? "threw" };
  return result.value;
}

test("one deposit signature, then checks with no wallet prompt; the balance shows; closing returns the rest", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  test.setTimeout(120_000);
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-life"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);

  // 1. The first check: the card says, in human terms, that this is a deposit, before the wallet signs.
  let release: () => void = () => undefined;
  wallet.state.holdSignatures = new Promise<void>((resolve) => {
    release = resolve;
  });
  await pasteAndClick(dapp, randomAddress(), "check");
  const asking = await waitForBadge(dapp, (b) => b.state === "waiting-wallet", 20_000);
  expect(asking.byTestId["payment-terms"]).toContain(
    "Sign in your wallet: a $0.05 USDC deposit to presend's channel",
  );
  expect(asking.byTestId["payment-terms"]).toContain(
    "unspent funds come back to you when you close it",
  );
  await screenshot(dapp, "channel-deposit-terms");
  wallet.state.holdSignatures = null;
  release();
  const first = await waitForBadge(dapp, finished, 30_000);
  expect(first.level, JSON.stringify(first)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  // The deposit left the wallet for the escrow: exactly the configured $0.05.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);

  // 2. Three more checks: vouchers by the session key, not one more wallet signature.
  for (let check = 2; check <= 4; check += 1) {
    const badge = await pasteAndCheck(dapp, randomAddress(), "check");
    expect(badge.level, `check ${check}: ${JSON.stringify(badge.state)}`).toBeTruthy();
  }
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(wallet.messageSignRequests()).toEqual([]);
  // The wallet was only read (eth_accounts, eth_chainId): never asked to connect or switch.
  expect(wallet.requestsOf("eth_requestAccounts")).toEqual([]);
  // Vouchers move nothing on chain: the payer's balance is where the deposit left it.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);

  // 3. The balance, in the card and in the popup.
  const [stored] = await storedBalances(serviceWorker);
  expect(stored).toMatchObject({ deposited: String(deposit), charged: String(4n * price) });
  const card = await waitForBadge(dapp, (b) => "channel-balance" in b.byTestId);
  expect(card.byTestId["channel-balance"]).toContain(
    "$0.01 of $0.05 left. Checks paid by that account take no wallet prompt",
  );
  await screenshot(dapp, "channel-balance-card");

  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 700 });
  await expect(popup.getByTestId("channel-balance")).toContainText(
    "$0.01 of $0.05 left. Checks paid by that account take no wallet prompt",
  );
  await screenshot(popup, "channel-balance-popup");

  // The daily cap counts the deposit whole (the vouchers paid from it add nothing).
  const today = utcDay(new Date());
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toEqual({
    day: today,
    spentUnits: Number(deposit),
  });
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expectSpentToday(options, "$0.05 of");

  // 4. Closing: the session key signs the refund voucher, the server sends the rest back on chain.
  await popup.bringToFront();
  await closeFromPopup(popup, "$0.01");
  await expect(popup.getByTestId("channel-balance")).toBeHidden();
  await screenshot(popup, "channel-closed-popup");
  // Reconciled with the chain: the payer paid exactly the four checks, the rest came back.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 4n * price);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  // The cap gets back exactly what the refund returned: today's spending is the four checks.
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toEqual({
    day: today,
    spentUnits: Number(4n * price),
  });
  await options.reload();
  await expectSpentToday(options, "$0.04 of");
  await screenshot(options, "channel-closed-cap-credited");
  await options.close();
  await popup.close();
});

test("a page cannot use the session key: no voucher without a click in the badge, no key to read, no close", async ({
  api,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-hostile"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  // An open channel with its deposit: what a page would like to spend.
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [opened] = await storedBalances(serviceWorker);
  expect(opened).toMatchObject({ deposited: String(deposit), charged: String(price) });
  const payerAfterDeposit = await api.usdcOnBase(payer);

  // The page: forged protocol messages and synthetic clicks, and no extension runtime to call.
  expect(await hostilePage(dapp)).toEqual({ runtime: false });
  // Even the content script's own world cannot read the key (session storage is for the
  // extension's pages and background only) nor close the channel (popup only).
  const read = await inContentScript(
    dapp,
    "chrome.storage.session.get(null).then((items) => ({ items }), (e) => ({ refused: String(e.message ?? e) }))",
  );
  expect(read).toMatchObject({ refused: expect.stringMatching(/not allowed/i) });
  const close = await inContentScript(
    dapp,
    "chrome.runtime.sendMessage({ presend: 1, type: 'channel.close', data: {} })",
  );
  expect(close).toMatchObject({ ok: false, error: { code: "not_allowed" } });
  await dapp.waitForTimeout(1_000);

  // Nothing was paid from the channel, nothing was signed, nothing moved on chain.
  expect(await storedBalances(serviceWorker)).toEqual([opened]);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await api.usdcOnBase(payer)).toBe(payerAfterDeposit);

  // A person's click still pays: one voucher, from the channel, with no wallet prompt.
  await pasteAndCheck(dapp, randomAddress(), "check");
  expect(await storedBalances(serviceWorker)).toMatchObject([
    { channelId: opened?.channelId, charged: String(2n * price) },
  ]);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);

  // The background itself holds the key in session storage, and no stored item a page's
  // content script can read contains it.
  const key = (await serviceWorker.evaluate(async () => {
    const { chrome } = globalThis as unknown as {
      chrome: { storage: { session: { get(k: string): Promise<Record<string, unknown>> } } };
    };
    return (await chrome.storage.session.get("channelSessionKey")).channelSessionKey;
  })) as { privateKey: string } | undefined;
  expect(key?.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
  const local = JSON.stringify(
    await serviceWorker.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { storage: { local: { get(k: null): Promise<Record<string, unknown>> } } };
      };
      return chrome.storage.local.get(null);
    }),
  );
  expect(local).not.toContain((key?.privateKey ?? "none").slice(2));
});

test("the daily cap holds the deposit: one that does not fit is refused before the wallet is asked, a smaller one set in the options is paid", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-cap"),
  });
  // $0.03 a day, a $0.05 deposit: a single check would fit, the deposit does not.
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url, dailyCapUnits: 30_000 });
  const payerAtStart = await api.usdcOnBase(wallet.account.address);
  const refused = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(refused.state).toBe("refused");
  expect(refused.code).toBe("cap_reached");
  expect(refused.text).toContain("A channel deposit of $0.05 was asked; lower it in the settings.");
  expect(wallet.signRequests()).toEqual([]);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  expect(await api.usdcOnBase(wallet.account.address)).toBe(payerAtStart);

  // The deposit is a setting: $0.02 fits the cap, and is what the wallet signs.
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.getByLabel("Channel deposit (USD)").fill("0.02");
  await options.getByRole("button", { name: "Save" }).click();
  await expect(options.getByTestId("saved")).toBeVisible();
  await options.close();
  const paid = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(paid.level, JSON.stringify(paid.state)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await storedBalances(serviceWorker)).toMatchObject([
    { deposited: "20000", charged: String(price) },
  ]);
  expect(await api.usdcOnBase(wallet.account.address)).toBe(payerAtStart - 20_000n);
});

test("a channel opened before the API in the settings changed is still closed from the popup: the rest comes back, as the button says", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-api-changed"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const paid = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(paid.level, JSON.stringify(paid.state)).toBeTruthy();
  const afterDeposit = await api.usdcOnBase(payer);

  // The person points the extension at another API (here the exact-only one).
  await setExtensionSettings(serviceWorker, { apiUrl: api.url });
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 700 });
  // Named as another API's: checks on the API now in the settings do not pay from it.
  await expect(popup.getByTestId("channel-balance")).toContainText(
    "not the API in your settings, holds $0.04 of $0.05 left; checks here do not pay from it.",
  );
  await screenshot(popup, "channel-other-api-popup");
  await closeFromPopup(popup, "$0.04");
  expect(await api.usdcOnBase(payer)).toBe(afterDeposit + deposit - price);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  await popup.close();
});

test("after a close, the next check opens a new channel: one deposit signature, and it pays; that channel closes too", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-after-close"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [closed] = await storedBalances(serviceWorker);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await closeFromPopup(popup, "$0.04");

  // The escrow keeps the refunded channel's claimed total: the next deposit goes to a channel
  // with a new salt, which the close kept for the checks after it (each check is its own client).
  const again = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(again.level, JSON.stringify(again.text)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
  const [opened, ...others] = await storedBalances(serviceWorker);
  expect(others).toEqual([]);
  expect(opened?.channelId).not.toBe(closed?.channelId);
  expect(opened).toMatchObject({ deposited: String(deposit), charged: String(price) });
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - price - deposit);

  // Reconciled with the chain: the new channel closes too, and the payer paid the two checks.
  await popup.reload();
  await closeFromPopup(popup, "$0.04");
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 2n * price);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  await popup.close();
});

test("a browser restart empties session storage while a channel holds funds: the rest is named as the server's to refund, the next check opens a new channel, and closing that one succeeds", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-restart"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [earlier] = await storedBalances(serviceWorker);
  const tab = await tabWithWallet(serviceWorker);

  // What a browser restart does to the background: session storage (the key, the channel
  // records) is emptied and the service worker starts again.
  await serviceWorker.evaluate(() =>
    (
      globalThis as unknown as { chrome: { storage: { session: { clear(): Promise<void> } } } }
    ).chrome.storage.session.clear(),
  );
  await stopBackground(dapp);
  const popup = await openPopup(context, extensionId, tab);
  await popup.setViewportSize({ width: 420, height: 700 });
  await expect(popup.getByTestId("channel-balance")).toContainText(
    "An earlier channel holds $0.04: it pays no more checks, and presend's server sends it back to your wallet after a day without checks.",
  );
  await expect(popup.getByRole("button", { name: /Close the channel/ })).toBeHidden();

  // The next check opens a new channel (one more deposit signature); the earlier one stays listed.
  const again = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(again.level, JSON.stringify(again.text)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
  const [opened, ended] = await storedBalances(serviceWorker);
  expect(opened).toMatchObject({ deposited: String(deposit), charged: String(price) });
  expect(ended).toMatchObject({ channelId: earlier?.channelId, sessionEnded: true });

  // Closing offers and returns the new channel's rest, and says so as a close, not a failure.
  await popup.reload();
  await closeFromPopup(popup, "$0.04");
  // What the close did, once: the balance line above still names the earlier channel.
  await expect(popup.getByTestId("channel-closed")).toHaveText(
    "Closed: $0.04 sent back to your wallet.",
  );
  await expect(popup.getByTestId("channel-balance")).toContainText(
    "An earlier channel holds $0.04",
  );
  await screenshot(popup, "channel-closed-after-restart");
  expect(await storedBalances(serviceWorker)).toMatchObject([
    { channelId: earlier?.channelId, sessionEnded: true },
  ]);
  // On chain: the new channel's rest came back; the earlier deposit is the server's to refund.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit - price);
  await popup.close();
});

test("the background stopped while a voucher is on its way: the card says so plainly and offers the report; started again, the next check pays from the same channel, each check charged once", async ({
  api,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-worker-stopped"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  // The wallet reads Base through its own node (the resync after the lost answer).
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  const payToAtStart = await api.usdcOnBase(channels.payTo);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [opened] = await storedBalances(serviceWorker);

  // The voucher is on its way (held at the proxy, its recovery written) when Chrome stops the
  // service worker; the server then charges it, and its answer has nobody to reach.
  let release: () => void = () => undefined;
  proxy.holdPaid = new Promise<void>((resolve) => {
    release = resolve;
  });
  await pasteAndClick(dapp, randomAddress(), "check");
  await expect
    .poll(
      async () =>
        ((await getExtensionStorage(serviceWorker, "pendingRecoveries")) as unknown[])?.length ?? 0,
      { timeout: 20_000 },
    )
    .toBe(1);
  await stopBackground(dapp);
  proxy.holdPaid = null;
  release();
  const lost = await waitForBadge(dapp, (b) => b.state === "failed", 30_000);
  expect(lost.text).toContain(
    "Report not received: presend's background stopped before this check's answer came back.",
  );
  expect(lost.text).not.toMatch(/message channel|nothing was charged/i);
  expect(lost.byTestId.recovery).toContain("Fetch my report");
  // The balance is read from storage beside the outcome: waited for, not raced.
  await waitForBadge(
    dapp,
    (b) => b.byTestId["channel-balance"]?.includes("$0.03 of $0.05 left") === true,
  );
  await screenshot(dapp, "channel-background-stopped");

  // The next click starts the worker again: the same channel, re-synced through the wallet's
  // read of the escrow, no second deposit; the lost voucher is not paid again.
  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, JSON.stringify(next.text)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await storedBalances(serviceWorker)).toMatchObject([
    { channelId: opened?.channelId, deposited: String(deposit), charged: String(3n * price) },
  ]);
  await channels.claimChannels();
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 3n * price);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);
});

test("a check in the card and one in the popup at the same moment pay one after the other from one channel: both verdicts, each charged once", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-two-at-once"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  const payToAtStart = await api.usdcOnBase(channels.payTo);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.getByLabel("Address").fill(randomAddress());

  // The card's voucher is held on its way while the popup's check is clicked.
  let release: () => void = () => undefined;
  proxy.holdPaid = new Promise<void>((resolve) => {
    release = resolve;
  });
  await dapp.bringToFront();
  await pasteAndClick(dapp, randomAddress(), "check");
  await expect
    .poll(
      async () =>
        ((await getExtensionStorage(serviceWorker, "pendingRecoveries")) as unknown[])?.length ?? 0,
      { timeout: 20_000 },
    )
    .toBe(1);
  await popup.getByRole("button", { name: "Check $0.01" }).click();
  proxy.holdPaid = null;
  release();

  const card = await waitForBadge(dapp, finished, 30_000);
  expect(card.level, JSON.stringify(card.text)).toBeTruthy();
  await expect(popup.getByTestId("result").getByTestId("verdict-level")).toBeVisible({
    timeout: 30_000,
  });
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await storedBalances(serviceWorker)).toMatchObject([
    { deposited: String(deposit), charged: String(3n * price) },
  ]);
  await expect(popup.getByTestId("channel-balance")).toContainText("$0.02 of $0.05 left");
  expect(await getExtensionStorage(serviceWorker, "pendingRecoveries")).toEqual([]);
  // Reconciled with the chain: the payee claims the three checks, the payer paid the deposit.
  await channels.claimChannels();
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 3n * price);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);
  await popup.close();
});

test("closing the channel while a check on it is in flight waits for that check: its verdict shows, and the close returns the rest after it", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-close-in-flight"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));

  // The check's voucher is held on its way (the balance already counts it) when Close is clicked.
  let release: () => void = () => undefined;
  proxy.holdPaid = new Promise<void>((resolve) => {
    release = resolve;
  });
  await dapp.bringToFront();
  await pasteAndClick(dapp, randomAddress(), "check");
  await expect
    .poll(
      async () =>
        ((await getExtensionStorage(serviceWorker, "pendingRecoveries")) as unknown[])?.length ?? 0,
      { timeout: 20_000 },
    )
    .toBe(1);
  await popup.getByRole("button", { name: "Close the channel, get $0.03 back" }).click();
  await expect(popup.getByRole("button", { name: "Closing…" })).toBeDisabled();
  proxy.holdPaid = null;
  release();

  const card = await waitForBadge(dapp, finished, 30_000);
  expect(card.level, JSON.stringify(card.text)).toBeTruthy();
  await expect(popup.getByTestId("channel-closed")).toHaveAttribute("data-state", "closed", {
    timeout: 30_000,
  });
  await expect(popup.getByTestId("channel-closed")).toContainText(
    "Closed: $0.03 sent back to your wallet.",
  );
  expect(await storedBalances(serviceWorker)).toEqual([]);
  expect(await getExtensionStorage(serviceWorker, "pendingRecoveries")).toEqual([]);
  // Reconciled with the chain and the cap: the payer paid the two checks, once each.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 2n * price);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toMatchObject({
    spentUnits: Number(2n * price),
  });
  await popup.close();
});

/**
 * Closes the channel with the popup's button, as it names what comes back (`amount`), and waits
 * until the popup says that amount was sent back to the wallet.
 */
async function closeFromPopup(popup: Page, amount: string): Promise<void> {
  await popup.getByRole("button", { name: `Close the channel, get ${amount} back` }).click();
  await expect(popup.getByTestId("channel-closed")).toHaveAttribute("data-state", "closed", {
    timeout: 30_000,
  });
  await expect(popup.getByTestId("channel-closed")).toContainText(
    `Closed: ${amount} sent back to your wallet.`,
  );
}

/** The extension's record of a channel as if the answer to its last voucher had been lost. */
async function loseLastAnswer(serviceWorker: Worker, channelId: string): Promise<void> {
  await serviceWorker.evaluate(async (id) => {
    const { chrome } = globalThis as unknown as {
      chrome: {
        storage: {
          session: {
            get(k: string): Promise<Record<string, Record<string, Record<string, string>>>>;
            set(items: object): Promise<void>;
          };
        };
      };
    };
    const states = (await chrome.storage.session.get("channelStates")).channelStates ?? {};
    const record = states[id] ?? {};
    // The server counted the second check; this browser's record did not.
    record.chargedCumulativeAmount = "10000";
    await chrome.storage.session.set({ channelStates: { ...states, [id]: record } });
  }, channelId);
}

test("a channel out of step with the server (a voucher's answer lost) is re-synced through the wallet's read of the escrow: the check pays from it, no second deposit, every check charged once", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  test.setTimeout(120_000);
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-out-of-step"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  // The wallet reads Base through its own node, as a real wallet's eth_call does.
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [opened] = await storedBalances(serviceWorker);
  expect(opened).toMatchObject({ charged: String(2n * price) });
  await loseLastAnswer(serviceWorker, opened?.channelId ?? "");
  expect(wallet.requestsOf("eth_call")).toEqual([]);

  // The server refuses the voucher counted from the stale record and proves its own state with
  // the session key's last voucher; the extension reads the escrow on Base through the wallet
  // (no prompt), resyncs, and pays this check with one more voucher.
  const resynced = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(resynced.level, JSON.stringify(resynced)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(wallet.requestsOf("eth_call").length).toBeGreaterThan(0);
  const shown = await storedBalances(serviceWorker);
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatchObject({
    channelId: opened?.channelId,
    deposited: String(deposit),
    charged: String(3n * price),
  });
  expect(shown[0]).not.toHaveProperty("sessionEnded");
  const card = await waitForBadge(dapp, (b) => "channel-balance" in b.byTestId);
  expect(card.byTestId["channel-balance"]).toContain(
    "(re-synced with presend's server): $0.02 of $0.05 left",
  );
  await screenshot(dapp, "channel-resynced");
  // One deposit left the wallet, nothing else.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);

  // Reconciled with the chain: closing claims the three checks, once each, and sends the rest back.
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 700 });
  await expect(popup.getByTestId("channel-balance")).toContainText(
    "(re-synced with presend's server): $0.02 of $0.05 left",
  );
  await screenshot(popup, "channel-resynced-popup");
  await closeFromPopup(popup, "$0.02");
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 3n * price);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  await popup.close();
});

test("a channel out of step that cannot be re-synced (the wallet is on another chain) pays nothing, and the next check opens a new one", async ({
  api,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-no-resync"),
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [opened] = await storedBalances(serviceWorker);
  await loseLastAnswer(serviceWorker, opened?.channelId ?? "");
  // The person moved the wallet to Ethereum: a read there would be another chain's state, so
  // none is made.
  await wallet.bridge("wallet_switchEthereumChain", JSON.stringify([{ chainId: "0x1" }]));

  const refused = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(refused.state).toBe("failed");
  expect(refused.text).toContain(
    "Your payment channel was out of step with presend's server and could not be re-synced, so nothing was paid.",
  );
  expect(refused.text).toContain("Nothing was charged.");
  // Checking again mends it; no setting does, so none is offered.
  expect(refused.text).not.toContain("Open settings");
  expect(wallet.requestsOf("eth_call")).toEqual([]);
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  const card = await waitForBadge(dapp, (b) => "channel-balance" in b.byTestId);
  expect(card.byTestId["channel-balance"]).toContain("An earlier channel holds $0.03");
  await screenshot(dapp, "channel-out-of-step");

  // The next check opens a new channel: one more deposit signature, then it pays.
  const again = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(again.level, JSON.stringify(again)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
  const shown = await storedBalances(serviceWorker);
  expect(shown).toHaveLength(2);
  expect(shown[0]).toMatchObject({ deposited: String(deposit), charged: String(price) });
  expect(shown[1]).toMatchObject({ channelId: opened?.channelId, sessionEnded: true });
  // On chain: two deposits left the wallet; the old one's rest is the server's to refund.
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 2n * deposit);
});

test("a channel offer to another payee is refused before the deposit is signed", async ({
  api,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-payee"),
  });
  const attacker = randomAddress();
  const proxy = await startProxy(channels.url);
  proxy.rewritePayTo = attacker;
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const payerAtStart = await api.usdcOnBase(wallet.account.address);
  const refused = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(refused.state).toBe("refused");
  expect(refused.code).toBe("attestation_mismatch");
  expect(wallet.signRequests()).toEqual([]);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  expect(await api.usdcOnBase(wallet.account.address)).toBe(payerAtStart);
  expect(await api.usdcOnBase(attacker)).toBe(0n);
});

test("a voucher whose answer is lost was written down before it left: its report is fetched through /receipts and shown, charged once; closing re-syncs the channel and returns the rest", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  test.setTimeout(120_000);
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-lost-answer"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  // The wallet reads Base through its own node (eth_call), as a real wallet's does.
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  const payToAtStart = await api.usdcOnBase(channels.payTo);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const pending = async () =>
    ((await getExtensionStorage(serviceWorker, "pendingRecoveries")) ?? []) as PendingRecovery[];

  // The voucher is held on its way to the server: its recovery is already written, so a
  // background stopped now would still leave the report to fetch.
  let release: () => void = () => undefined;
  proxy.holdPaid = new Promise<void>((resolve) => {
    release = resolve;
  });
  proxy.losePaidAnswer = true;
  const target = randomAddress();
  await pasteAndClick(dapp, target, "check");
  await expect.poll(async () => (await pending()).length, { timeout: 20_000 }).toBe(1);
  const [waiting] = await pending();
  expect(waiting).toMatchObject({
    payer,
    address: target,
    route: "check",
    chain: "base",
    amount: String(price),
    transaction: null,
    apiUrl: proxy.url,
    lastAttempt: null,
  });
  proxy.holdPaid = null;
  release();

  // The server charged the voucher; its answer never arrived.
  const lost = await waitForBadge(dapp, (b) => b.state === "failed", 30_000);
  expect(lost.text).not.toMatch(/nothing was charged/i);
  expect(lost.byTestId.recovery).toContain("Fetch my report");
  expect(await pending()).toMatchObject([{ id: waiting?.id, nonce: waiting?.nonce }]);
  // The balance does not promise back what the server may have charged.
  const shown = await waitForBadge(dapp, (b) => "channel-balance" in b.byTestId);
  expect(shown.byTestId["channel-balance"]).toContain(
    "$0.03 of $0.05 left. Checks paid by that account take no wallet prompt",
  );
  await screenshot(dapp, "channel-voucher-answer-lost");
  proxy.losePaidAnswer = false;

  // On the person's click: the payer's receipt signature, the report through /receipts, shown
  // once the server's claim (every 60 s, run now with its settlement) covers the voucher. The
  // claim is what the payee gets: both checks, the lost one once.
  await channels.claimChannels();
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 2n * price);
  await clickBadgeButton(dapp, "fetch-report");
  const recovered = await waitForBadge(dapp, (b) => "verdict-level" in b.byTestId, 20_000);
  expect(recovered.level).toBeTruthy();
  const [proof] = wallet.messageSignRequests();
  const signed = (proof?.params as [`0x${string}`] | undefined)?.[0] ?? "0x";
  expect(hexToString(signed)).toBe(`presend receipt ${waiting?.nonce}`);
  const [filed] = (await getExtensionStorage(serviceWorker, "history")) as HistoryEntry[];
  expect(filed).toMatchObject({
    address: target,
    amount: String(price),
    payTo: channels.payTo,
  });
  // The transaction filed is the claim's that settled the voucher, not its record nonce.
  expect(filed?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  expect(filed?.transaction).not.toBe(waiting?.nonce);
  expect(await pending()).toEqual([]);
  await screenshot(dapp, "channel-voucher-recovered");
  // Recovering paid nothing: no wallet signature but the deposit, nothing more on chain.
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - deposit);
  await channels.claimChannels();
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 2n * price);

  // The channel's record here lacks the lost voucher: the server refuses the close's refund
  // voucher as out of step, proving its count with the lost voucher's signature; the popup's tab's
  // wallet reads the escrow on Base, the channel is resynced and closed. Reconciled with the
  // chain: the payer paid exactly the two checks, the lost one once.
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await closeFromPopup(popup, "$0.03");
  expect(wallet.requestsOf("eth_call").length).toBeGreaterThan(0);
  expect(await storedBalances(serviceWorker)).toEqual([]);
  await screenshot(popup, "channel-close-resynced");
  await popup.close();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization"]);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 2n * price);
  expect(await api.usdcOnBase(channels.payTo)).toBe(payToAtStart + 2n * price);
});

test("a channel the server refunded while idle: closing says the rest is already back and stops offering it; the next check opens a new channel with one deposit", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-idle-refund"),
    // The server's idle refund, in seconds instead of a day.
    CHANNEL_CLAIM_INTERVAL_SECS: "1",
    CHANNEL_SETTLE_INTERVAL_SECS: "1",
    CHANNEL_REFUND_INTERVAL_SECS: "1",
    CHANNEL_IDLE_REFUND_SECS: "3",
  });
  await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const [refunded] = await storedBalances(serviceWorker);
  // Left idle, the channel is refunded by the server: the payer paid the one check.
  await expect
    .poll(async () => payerAtStart - (await api.usdcOnBase(payer)), { timeout: 30_000 })
    .toBe(price);

  // The extension cannot know yet: it offers the rest back. Closing says where it is.
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 700 });
  await popup.getByRole("button", { name: "Close the channel, get $0.04 back" }).click();
  await expect(popup.getByTestId("channel-closed")).toContainText(
    "Already closed: what was left of this channel's deposit went back to your wallet",
    { timeout: 30_000 },
  );
  await expect(popup.getByTestId("channel-closed")).not.toContainText(/stays in the channel/);
  await expect(popup.getByTestId("channel-balance")).toBeHidden();
  await expect(popup.getByRole("button", { name: /Close the channel/ })).toBeHidden();
  await screenshot(popup, "channel-refunded-by-server-closed");
  expect(await storedBalances(serviceWorker)).toEqual([]);

  // The next check: one new deposit, a new channel, its own balance.
  await dapp.bringToFront();
  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, JSON.stringify(next.text)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
  const [opened] = await storedBalances(serviceWorker);
  expect(opened?.channelId).not.toBe(refunded?.channelId);
  expect(opened).toMatchObject({ deposited: String(deposit), charged: String(price) });
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - price - deposit);
  // The session key is still out of the page's reach.
  const read = await inContentScript(
    dapp,
    "chrome.storage.session.get(null).then((items) => ({ items }), (e) => ({ refused: String(e.message ?? e) }))",
  );
  expect(read).toMatchObject({ refused: expect.stringMatching(/not allowed/i) });
  await popup.close();
});

test("the background stopped while the channel closes: the popup says the refund's outcome is unknown, closing again says it is already closed, and the next check opens a new channel", async ({
  api,
  context,
  extensionId,
  serviceWorker,
  dapp,
  wallet,
  startSibling,
  startProxy,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-close-stopped"),
  });
  const proxy = await startProxy(channels.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  await pasteAndCheck(dapp, randomAddress(), "check");
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.setViewportSize({ width: 420, height: 700 });

  // The signed refund is held on its way when Chrome stops the service worker; the server then
  // makes the refund, and its answer has nobody to reach.
  let release: () => void = () => undefined;
  proxy.holdPaid = new Promise<void>((resolve) => {
    release = resolve;
  });
  await popup.getByRole("button", { name: "Close the channel, get $0.04 back" }).click();
  await expect.poll(() => proxy.held, { timeout: 20_000 }).toBe(1);
  await stopBackground(dapp);
  proxy.holdPaid = null;
  release();
  await expect(popup.getByTestId("channel-closed")).toHaveText(
    "presend's background stopped while closing the channel, so whether the rest was sent back is not known here. Close again: it sends back what is left, or says the channel is already closed.",
    { timeout: 30_000 },
  );
  await screenshot(popup, "channel-background-stopped-while-closing");
  // The refund was made: the payer paid the one check.
  await expect.poll(async () => payerAtStart - (await api.usdcOnBase(payer))).toBe(price);

  await popup.reload();
  await popup.getByRole("button", { name: "Close the channel, get $0.04 back" }).click();
  await expect(popup.getByTestId("channel-closed")).toContainText(
    "Already closed: what was left of this channel's deposit went back to your wallet",
    { timeout: 30_000 },
  );
  await expect(popup.getByTestId("channel-balance")).toBeHidden();
  await screenshot(popup, "channel-closed-again-after-stop");

  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, JSON.stringify(next.text)).toBeTruthy();
  expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
  expect(await api.usdcOnBase(payer)).toBe(payerAtStart - price - deposit);
  await popup.close();
});

test("the browser closed and started again on the same profile: the key and the channel's record are gone, the rest is named as the server's to refund, and the next check opens a new channel", async ({
  api,
  wallet,
  startSibling,
  dappUrl,
}) => {
  const channels = await startSibling({
    CHANNELS: "on",
    RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-real-restart"),
  });
  const payer = wallet.account.address;
  const payerAtStart = await api.usdcOnBase(payer);
  // A browser of its own on a profile of its own, closed and started again (not the emulated
  // restart above, which assumes Chromium empties session storage on a restart).
  const profile = mkdtempSync(join(tmpdir(), "presend-e2e-profile-"));
  try {
    const before = await launchChromiumWithExtension(extensionDir, { userDataDir: profile });
    await setExtensionSettings(before.serviceWorker, { apiUrl: channels.url });
    const page = await openDapp(before.context, wallet, dappUrl);
    await pasteAndCheck(page, randomAddress(), "check");
    await pasteAndCheck(page, randomAddress(), "check");
    const [opened] = await storedBalances(before.serviceWorker);
    await before.close();

    const after = await launchChromiumWithExtension(extensionDir, { userDataDir: profile });
    try {
      expect(after.extensionId).toBe(before.extensionId);
      const session = await after.serviceWorker.evaluate(async () => {
        const { chrome } = globalThis as unknown as {
          chrome: { storage: { session: { get(k: null): Promise<Record<string, unknown>> } } };
        };
        return chrome.storage.session.get(null);
      });
      expect(session).toEqual({});
      const dapp = await openDapp(after.context, wallet, dappUrl);
      const popup = await openPopup(
        after.context,
        after.extensionId,
        await tabWithWallet(after.serviceWorker),
      );
      await popup.setViewportSize({ width: 420, height: 700 });
      await expect(popup.getByTestId("channel-balance")).toContainText(
        "An earlier channel holds $0.03: it pays no more checks, and presend's server sends it back to your wallet after a day without checks.",
      );
      await expect(popup.getByRole("button", { name: /Close the channel/ })).toBeHidden();
      await screenshot(popup, "channel-after-real-restart");

      await dapp.bringToFront();
      const next = await pasteAndCheck(dapp, randomAddress(), "check");
      expect(next.level, JSON.stringify(next.text)).toBeTruthy();
      expect(signedTypes(wallet)).toEqual(["ReceiveWithAuthorization", "ReceiveWithAuthorization"]);
      expect(await storedBalances(after.serviceWorker)).toMatchObject([
        { deposited: String(deposit), charged: String(price) },
        { channelId: opened?.channelId, sessionEnded: true },
      ]);
      expect(await api.usdcOnBase(payer)).toBe(payerAtStart - 2n * deposit);
      // The new session's key is as far from the page as the first one was.
      const read = await inContentScript(
        dapp,
        "chrome.storage.session.get(null).then((items) => ({ items }), (e) => ({ refused: String(e.message ?? e) }))",
      );
      expect(read).toMatchObject({ refused: expect.stringMatching(/not allowed/i) });
    } finally {
      await after.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
