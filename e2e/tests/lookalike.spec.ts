import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import { getAddress } from "viem";
import { expect, test } from "../fixtures/test";
import { lookalikeOf, randomAddress } from "../helpers/addresses";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage, setExtensionStorage } from "../helpers/extensionStorage";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";

const used = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
// Same first four and last four hex characters as `used`: an address-poisoning lookalike.
const lookalike = "0xd8da000000000000000000000000000000006045";

test("a lookalike of an address checked before is flagged danger, free", async ({
  dapp,
  serviceWorker,
  wallet,
}) => {
  await seedCheckedAddress(serviceWorker, used);
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, lookalike);
  const chip = await waitForBadge(dapp, (b) => b.visible && b.chip === "Lookalike");
  expect(chip.localLevel).toBe("danger");
  await expandBadge(dapp);
  const badge = await waitForBadge(dapp, (b) => b.visible && "lookalike" in b.byTestId);
  expect(badge.byTestId.lookalike).toContain(used);
  expect(badge.byTestId["local-decision"]).toContain("Don't send");
  expect(wallet.signRequests()).toEqual([]);
});

test("the very address checked before is not a lookalike", async ({ dapp, serviceWorker }) => {
  await seedCheckedAddress(serviceWorker, used);
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, used);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(badge.byTestId.lookalike).toBeUndefined();
});

test("a lookalike of an address the dApp's wallet sent USDC to is flagged danger, free", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  // The wallet really sends: the ERC-20 transfer lands on the local Base chain.
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const recipient = randomAddress();
  await dapp.locator(dappFields.input).fill(recipient);
  // The chip sits beside the field, so the dApp's own button takes a real click.
  await dapp.locator("#send").click();
  await expect
    .poll(() => dapp.evaluate(() => document.body.dataset.sent ?? null))
    .toMatch(/^0x[0-9a-f]{64}$/);
  await expect.poll(() => api.usdcOnBase(recipient)).toBe(1_000_000n);
  // The bridge saw the transfer's recipient in the calldata (not the token contract).
  await expect
    .poll(() => getExtensionStorage(serviceWorker, "sentRecipients"))
    .toEqual([{ address: recipient, at: expect.any(String), site: new URL(dapp.url()).origin }]);

  const poison = lookalikeOf(recipient);
  await dapp.locator(dappFields.input).fill("");
  await pasteInto(dapp, dappFields.input, poison);
  await waitForBadge(dapp, (b) => b.visible && b.chip === "Lookalike");
  await expandBadge(dapp);
  const badge = await waitForBadge(dapp, (b) => b.visible && "lookalike" in b.byTestId);
  expect(badge.byTestId.address).toBe(poison);
  expect(badge.byTestId.lookalike).toContain(recipient);
  expect(wallet.signRequests()).toEqual([]);
});

test("a paid ok verdict of a lookalike is never shown green beside its danger, in the card or the popup", async ({
  context,
  dapp,
  extensionId,
  serviceWorker,
  wallet,
}) => {
  // The lookalike was paid for and found an active wallet (ok) a minute ago; the genuine
  // address was checked before. The server does not know the person's history here: the
  // local lookalike danger stands, and nothing beside it reads as reassurance.
  await setExtensionStorage(serviceWorker, {
    history: [
      {
        ...exampleHistoryEntry({ address: getAddress(lookalike), checkedAt: new Date() }),
        id: "lookalike",
      },
      { ...exampleHistoryEntry({ address: used, checkedAt: new Date(0) }), id: "used" },
    ],
  });
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, lookalike);
  const chip = await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  expect(chip.chip).toBe("Don't send");
  const card = await expandBadge(dapp);
  expect(card.byTestId["local-decision"]).toContain("Don't send");
  expect(card.byTestId["verdict-headline"]).toBeDefined();
  expect(card.byTestId["verdict-decision"]).not.toContain("Looks fine to send");
  expect(card.byTestId["verdict-decision"]).toContain("Don't send");
  // The server's milder next step ("send a small test amount") is not given either.
  expect(card.byTestId["verdict-next"]).toBeUndefined();
  await screenshot(dapp, "card-lookalike-paid-ok");

  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.getByLabel("Address").fill(lookalike);
  await expect(popup.getByTestId("lookalike")).toBeVisible();
  const result = popup.getByTestId("result");
  await expect(result.getByTestId("verdict-decision")).toContainText("Don't send");
  await expect(result.locator(".level-ok")).toHaveCount(0);
  // Recent results list neither of the pair green for someone to copy from.
  const listed = popup.getByTestId("history");
  await expect(listed.locator('li[data-level="ok"]')).toHaveCount(0);
  await expect(listed.locator('li[data-level="danger"]')).toHaveCount(2);
  await listed.getByTestId("history-entry").first().locator("summary").first().click();
  await expect(listed.getByTestId("history-lookalike").first()).toContainText(used);
  await screenshot(popup, "popup-lookalike-paid-ok");
  await popup.close();
  expect(wallet.signRequests()).toEqual([]);
});
