import type { Page } from "@playwright/test";
import { exampleHistoryEntry } from "@presend/extension/storage/exampleHistoryEntry";
import { expect, test } from "../fixtures/test";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { setExtensionStorage } from "../helpers/extensionStorage";
import { pasteAndCheck } from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";

// A paid verdict belongs to its address and chain for ten minutes: it is shown again, with its
// age, after a reload, in another tab, in the popup, and when the address is deleted and typed
// again. Checking again is the paid action; nothing asks the wallet to pay for the same answer.

async function pasteFresh(page: Page, address: string): Promise<void> {
  await page.locator("#to").fill("");
  await pasteInto(page, "#to", address);
}

test("a paid verdict is shown again after a reload, in another tab and in the popup, without a new signature", async ({
  api,
  context,
  dapp,
  dappUrl,
  extensionId,
  serviceWorker,
  wallet,
}) => {
  const address = activeEoa(api.world);
  expect((await pasteAndCheck(dapp, address, "check")).level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);

  await dapp.reload();
  await pasteFresh(dapp, address);
  const again = await waitForBadge(dapp, (b) => b.visible && b.chip === "Looks fine to send");
  expect(again.chip).toBe("Looks fine to send");
  const card = await expandBadge(dapp);
  expect(card.level).toBe("ok");
  expect(card.byTestId["verdict-age"]).toBe("Checked on Base just now");
  // Checking again is there, folded: the paid action, not an invitation.
  expect(card.byTestId["check-again"]).toContain("Check again");
  await screenshot(dapp, "card-verdict-shown-again");

  const other = await context.newPage();
  await other.goto(dappUrl);
  await pasteInto(other, "#to", address);
  expect((await waitForBadge(other, (b) => b.visible && b.chip !== null)).chip).toBe(
    "Looks fine to send",
  );
  await other.close();

  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  await popup.getByLabel("Address").fill(address);
  const result = popup.getByTestId("result");
  await expect(result.getByTestId("verdict-level")).toHaveText("OK");
  await expect(result.getByTestId("verdict-age")).toHaveText("Checked on Base just now");
  await popup.close();
  expect(wallet.signRequests()).toHaveLength(1);
});

test("deleting one character and typing it again brings the verdict back", async ({
  api,
  dapp,
  wallet,
}) => {
  const address = activeEoa(api.world);
  await pasteAndCheck(dapp, address, "check");
  await dapp.locator("#to").focus();
  await dapp.keyboard.press("End");
  await dapp.keyboard.press("Backspace");
  await waitForBadge(dapp, (b) => b.status === "malformed");
  await dapp.keyboard.type(address.slice(-1));
  const back = await waitForBadge(dapp, (b) => b.status === "valid" && b.level === "ok");
  expect(back.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
});

test("the verdict says its age; after ten minutes it is not shown again", async ({
  dapp,
  serviceWorker,
}) => {
  const recent = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
  const old = "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA";
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  await setExtensionStorage(serviceWorker, {
    history: [
      exampleHistoryEntry({ address: recent, checkedAt: minutesAgo(4) }),
      { ...exampleHistoryEntry({ address: old, checkedAt: minutesAgo(11) }), id: "old" },
    ],
  });
  await dapp.reload();
  await pasteFresh(dapp, recent);
  const shown = await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  expect(shown.chip).toBe("Looks fine to send · 4 min");
  await screenshot(dapp, "chip-verdict-4-min-ago");
  await pasteFresh(dapp, old);
  const stale = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(stale.chip).toBe("Checksum OK · not checked");
});

test("a verdict stays with its chain: the wallet switching to another chain after the check moves the card there, not checked, and back to Base shows the verdict again", async ({
  api,
  dapp,
  wallet,
}) => {
  const address = activeEoa(api.world);
  expect((await pasteAndCheck(dapp, address, "check")).level).toBe("ok");
  const switchTo = async (chainId: number) => {
    wallet.state.chainId = chainId;
    await dapp.evaluate(
      (hex) =>
        (window as unknown as { emitWalletEvent: (e: string, v: unknown) => void }).emitWalletEvent(
          "chainChanged",
          hex,
        ),
      `0x${chainId.toString(16)}`,
    );
  };
  // The dApp (and its wallet) now sends on Arbitrum: the Base verdict says nothing about it.
  await switchTo(42161);
  const moved = await waitForBadge(dapp, (b) => b.chain === "arbitrum");
  expect(moved.level).toBeNull();
  expect(moved.text).not.toContain("Looks fine to send");
  // Back on Base, the paid verdict is shown again, with no new signature.
  await switchTo(8453);
  const back = await waitForBadge(dapp, (b) => b.chain === "base" && b.level !== null);
  expect(back.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
});
