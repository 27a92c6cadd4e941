import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { clickBadgeButton, waitForBadge } from "../helpers/badge";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import {
  afterCharge,
  balances,
  pasteAndCheck,
  pasteAndClick,
  pasteAndClickUntilWalletAsks,
} from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { expectSpentToday } from "../helpers/spentToday";
import { stopBackground } from "../helpers/stopBackground";

// An exact paid check (one EIP-3009 authorization per check) whose background Chrome stops
// mid-check, as it stops an idle worker or ends one on an update: the card must say what is true
// of the charge, and the daily cap must count what was charged, no more.

/** Opens the options page beside `page`, expects its spending line to read `expected`, closes it. */
async function expectSpentTodayInNewOptionsPage(page: Page, extensionId: string, expected: string) {
  const options = await page.context().newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expectSpentToday(options, expected);
  await options.close();
}

test("the background stopped while the wallet asks: the card says nothing was charged, the late signature pays nothing, the next check pays once", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  extensionId,
}) => {
  const who = { payer: wallet.account.address, payTo: api.world.accounts.payTo.address };
  const before = await balances(api, who);
  const sign = await pasteAndClickUntilWalletAsks(dapp, wallet, randomAddress(), "check");
  await stopBackground(dapp);

  const lost = await waitForBadge(dapp, (b) => b.state === "failed", 30_000);
  expect(lost.text).toContain("presend's background stopped before this check paid anything.");
  expect(lost.text).toContain("Nothing was charged.");
  expect(lost.text).not.toMatch(/payment was sent|Report not received/);
  expect(lost.byTestId.recovery).toBeUndefined();
  // Checking again is the remedy, not the settings.
  expect(lost.text).not.toContain("Open settings");
  await screenshot(dapp, "exact-background-stopped-before-signing");
  // The person signs in the wallet after all: the signature has nowhere to go.
  sign();

  // The next click starts the worker again and pays for its own check, once.
  const next = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(next.level, JSON.stringify(next.text)).toBe("caution");
  expect(wallet.signRequests()).toHaveLength(2);
  expect(await balances(api, who)).toEqual(afterCharge(before, 10_000n));
  expect(await getExtensionStorage(serviceWorker, "pendingRecoveries")).toEqual([]);
  await expectSpentTodayInNewOptionsPage(dapp, extensionId, "$0.01 of $1.00 spent today (UTC).");
});

test("the background stopped after signing, the payment never reaching the server: 'Fetch my report' proves nothing was charged and the cap gets it back", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  extensionId,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = { payer: wallet.account.address, payTo: api.world.accounts.payTo.address };
  const before = await balances(api, who);
  // The signed payment is on its way (held, its recovery written) when the worker stops; the
  // network then loses it: it never reaches the server.
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
  proxy.target = "http://127.0.0.1:9";
  release();
  const lost = await waitForBadge(dapp, (b) => b.state === "failed", 30_000);
  expect(lost.text).toContain("Report not received: presend's background stopped");
  expect(lost.text).toContain("whether it settled is unknown");
  proxy.holdPaid = null;
  proxy.target = api.url;

  await clickBadgeButton(dapp, "fetch-report");
  const proven = await waitForBadge(dapp, (b) => "recovery-result" in b.byTestId, 20_000);
  expect(proven.byTestId["recovery-result"]).toContain("Nothing was charged");
  expect(proven.byTestId["recovery-result"]).toContain(
    "presend's server has no record of this payment. Check again to pay for the check.",
  );
  // The proof replaces "whether it settled is unknown": the two are not shown side by side.
  expect(proven.text).not.toMatch(/Report not received|whether it settled is unknown/);
  await screenshot(dapp, "exact-background-stopped-not-sent-recovered");
  expect(await balances(api, who)).toEqual(before);
  // The cap counted the payment when it left; the server's proof gives it back.
  await expectSpentTodayInNewOptionsPage(dapp, extensionId, "$0.00 of $1.00 spent today (UTC).");
  // The next check counts as it should, once.
  await pasteAndCheck(dapp, randomAddress(), "check");
  await expectSpentTodayInNewOptionsPage(dapp, extensionId, "$0.01 of $1.00 spent today (UTC).");
});
