import { devnetAccounts, senderWorld } from "@presend/devnet";
import { expect, test } from "../fixtures/test";
import { createTestWallet } from "../fixtures/testWallet";
import {
  clickBadgeButton,
  expandBadge,
  finished,
  onBadgeElement,
  waitForBadge,
} from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionSettings } from "../helpers/extensionStorage";
import { balances } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// The demo world's poisoning victim: it paid its genuine counterparty six times on local Base,
// and a poisoner planted a zero-value transfer to a fresh lookalike (same first and last 4 hex
// characters) in its history. Its wallet pays the check, so the check reads its own payments.
test.use({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form.
  wallet: async ({}, use) => {
    await use(createTestWallet({ privateKey: devnetAccounts.poisoningVictim.privateKey }));
  },
});

test("at 360 px, pasting a poisoning lookalike on the send form: the paid check reads the payer's own history and says Don't send, the genuine address beside it, differences marked", async ({
  api,
  dapp,
  dappUrl,
  wallet,
  serviceWorker,
}) => {
  const victim = devnetAccounts.poisoningVictim.address;
  const genuine = devnetAccounts.genuineCounterparty.address;
  const lookalike = senderWorld.freshLookalike;
  expect(wallet.account.address).toBe(victim);
  const before = await balances(api, { payer: victim });
  // The victim pays with its own USDC, seeded in the demo world.
  expect(before.payer).toBeGreaterThanOrEqual(10_000n);

  await setExtensionSettings(serviceWorker, { apiUrl: api.url, checkAsPayer: true });
  await dapp.setViewportSize({ width: 360, height: 640 });
  await dapp.goto(`${dappUrl}form.html?wallet=1`);
  await pasteInto(dapp, "#to", lookalike);
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.visible && b.text.includes("Check $0.01"));
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);

  expect(badge.level).toBe("danger");
  expect(badge.text).toContain("Don't send");
  expect(badge.reasons.address_poisoning ?? badge.byTestId["verdict-reason"]).toBeTruthy();
  expect(badge.byTestId["lookalike-checked"]).toBe(lookalike);
  expect(badge.byTestId["lookalike-genuine"]).toBe(genuine);
  const differing = [...lookalike.slice(2).toLowerCase()].filter(
    (c, i) => c !== genuine.slice(2).toLowerCase()[i],
  ).length;
  expect(badge.byTestId["lookalike-differs"]).toContain(`differs in ${differing} characters`);
  expect(badge.byTestId["verdict-sender"]).toBe(
    `Checked as a payment from ${victim.slice(0, 4)}…${victim.slice(-2)}: your own payment history on Base was read.`,
  );

  // The marks read without colour (bold and underlined), and the comparison fits 360 px.
  const marks = await onBadgeElement<{
    weight: string;
    line: string;
    texts: string[];
    fits: boolean;
  }>(
    dapp,
    "lookalike-genuine",
    `function () {
      const marks = [...this.querySelectorAll("mark")];
      const style = getComputedStyle(marks[0]);
      const box = this.closest("[data-testid=lookalike-comparison]");
      return { weight: style.fontWeight, line: style.textDecorationLine,
        texts: marks.map((m) => m.textContent), fits: box.scrollWidth <= box.clientWidth };
    }`,
  );
  expect(Number(marks.weight)).toBeGreaterThanOrEqual(700);
  expect(marks.line).toContain("underline");
  expect(marks.texts.join("").length).toBe(differing);
  expect(marks.fits).toBe(true);
  await screenshot(dapp, "card-address-poisoning-360");
  await onBadgeElement(
    dapp,
    "verdict-sender",
    "function () { this.scrollIntoView({ block: 'nearest' }); }",
  );
  await screenshot(dapp, "card-address-poisoning-360-sender");

  // The payer was charged once, for the check that warned it.
  expect((await balances(api, { payer: victim })).payer).toBe((before.payer ?? 0n) - 10_000n);
});
