import { devnetAccounts, senderWorld } from "@presend/devnet";
import { expect, test } from "../fixtures/test";
import { createTestWallet } from "../fixtures/testWallet";
import { clickBadgeButton, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionSettings } from "../helpers/extensionStorage";
import { balances } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { forgetPanelTarget, openSidePanelPage, panelTarget } from "../helpers/sidePanel";

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
  context,
  extensionId,
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
  await forgetPanelTarget(serviceWorker);
  await pasteInto(dapp, "#to", lookalike);
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  // No room for the card on a phone: the chip opens the browser's side panel, where it is paid.
  await clickBadgeButton(dapp, "expand", { whenReady: false });
  await expect.poll(() => panelTarget(serviceWorker)).not.toBeNull();
  const target = await panelTarget(serviceWorker);
  if (!target) throw new Error("no side panel target");
  const panel = await openSidePanelPage(context, extensionId, target);
  const card = panel.getByTestId("side-panel");
  const check = card.getByRole("button", { name: "Check $0.01" });
  await expect(check).toBeEnabled();
  await check.click();
  await expect(card.getByTestId("verdict-level")).toHaveText("Danger", { timeout: 30_000 });

  await expect(card).toContainText("Don't send");
  await expect(card.getByTestId("lookalike-checked")).toHaveText(lookalike);
  await expect(card.getByTestId("lookalike-genuine")).toHaveText(genuine);
  const differing = [...lookalike.slice(2).toLowerCase()].filter(
    (c, i) => c !== genuine.slice(2).toLowerCase()[i],
  ).length;
  await expect(card.getByTestId("lookalike-differs")).toContainText(
    `differs in ${differing} characters`,
  );
  await expect(card.getByTestId("verdict-sender")).toHaveText(
    `Checked as a payment from ${victim.slice(0, 4)}…${victim.slice(-2)}: your own payment history on Base was read.`,
  );
  // The chip in the page says it too.
  await waitForBadge(dapp, (b) => b.chip?.startsWith("Don't send") ?? false);

  // The marks read without colour (bold and underlined), and the comparison fits 360 px.
  const marks = await card.getByTestId("lookalike-genuine").evaluate((element) => {
    const found = [...element.querySelectorAll("mark")];
    const style = getComputedStyle(found[0] as Element);
    const box = element.closest("[data-testid=lookalike-comparison]") as Element;
    return {
      weight: style.fontWeight,
      line: style.textDecorationLine,
      texts: found.map((m) => m.textContent),
      fits: box.scrollWidth <= box.clientWidth,
    };
  });
  expect(Number(marks.weight)).toBeGreaterThanOrEqual(700);
  expect(marks.line).toContain("underline");
  expect(marks.texts.join("").length).toBe(differing);
  expect(marks.fits).toBe(true);
  await screenshot(panel, "card-address-poisoning-360");
  await card.getByTestId("verdict-sender").scrollIntoViewIfNeeded();
  await screenshot(panel, "card-address-poisoning-360-sender");
  await panel.close();

  // The payer was charged once, for the check that warned it.
  expect((await balances(api, { payer: victim })).payer).toBe((before.payer ?? 0n) - 10_000n);
});
