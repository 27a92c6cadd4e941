import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { clickBadgeButton, expandBadge, finished, readBadge, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// Send forms in the browser's top layer: a modal <dialog>, a popover. The top layer is drawn
// above any z-index, and a modal dialog makes the rest of the page inert: a badge left on <html>
// was drawn under the dialog's backdrop, unseen (a "Don't send" included) and unclickable.

/** What the page itself finds at the middle of the badge: the badge, or what is drawn over it. */
const onTopOfBadge = (page: Page) =>
  page.evaluate(() => {
    const host = document.querySelector("presend-badge") as HTMLElement;
    const r = host.getBoundingClientRect();
    return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.localName ?? null;
  });

test("a send field in a modal dialog: the badge is drawn above the dialog, opens on a click and pays", async ({
  api,
  dapp,
  wallet,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await dapp.evaluate(() => {
    const dialog = document.createElement("dialog");
    dialog.innerHTML =
      '<form method="dialog"><label>Send to <input id="in-dialog" style="width:420px"></label> <button>Send</button></form>';
    document.body.append(dialog);
    dialog.showModal();
  });
  const target = activeEoa(api.world);
  await pasteInto(dapp, "#in-dialog", target);
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  expect(await onTopOfBadge(dapp)).toBe("presend-badge");
  await screenshot(dapp, "badge-in-modal-dialog");

  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.expanded && b.byTestId.address === target && b.clickReady);
  await screenshot(dapp, "card-in-modal-dialog");
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);
  expect(badge.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
  // The dialog is still the page's, open, with the field the person filled.
  expect(await dapp.evaluate(() => document.querySelector("dialog")?.open)).toBe(true);
});

test("a send field in a popover: the chip shows above it and a click on it leaves the page's popover open", async ({
  dapp,
}) => {
  await dapp.evaluate(() => {
    const popover = document.createElement("div");
    popover.id = "send-popover";
    popover.popover = "auto";
    popover.innerHTML = '<label>Send to <input id="in-popover" style="width:380px"></label>';
    popover.style.cssText = "inset:auto;top:120px;left:40px;margin:0;padding:16px;width:600px";
    document.body.append(popover);
    popover.showPopover();
  });
  await pasteInto(dapp, "#in-popover", randomAddress());
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  expect(await onTopOfBadge(dapp)).toBe("presend-badge");
  await expandBadge(dapp);
  expect((await readBadge(dapp)).expanded).toBe(true);
  expect(
    await dapp.evaluate(() => document.getElementById("send-popover")?.matches(":popover-open")),
  ).toBe(true);
  await screenshot(dapp, "card-in-popover");
});

test("a badge whose field leaves the dialog goes back to the page: a field outside it gets a badge on <html>", async ({
  dapp,
}) => {
  await dapp.evaluate(() => {
    const dialog = document.createElement("dialog");
    dialog.innerHTML = '<input id="in-dialog" style="width:420px">';
    document.body.append(dialog);
    dialog.showModal();
  });
  await pasteInto(dapp, "#in-dialog", randomAddress());
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  await dapp.evaluate(() => document.querySelector("dialog")?.close());
  await pasteInto(dapp, "#to", randomAddress());
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  expect(
    await dapp.evaluate(() => {
      const host = document.querySelector("presend-badge") as HTMLElement;
      return { parent: host.parentElement?.localName, popover: host.hasAttribute("popover") };
    }),
  ).toEqual({ parent: "html", popover: false });
  expect(await onTopOfBadge(dapp)).toBe("presend-badge");
});
