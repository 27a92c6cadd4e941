import type { Page } from "@playwright/test";
import { visibleEnds } from "@presend/shared/address/visibleEnds";
import { generatePrivateKey } from "viem/accounts";
import { attachOtherWallet } from "../fixtures/attachOtherWallet";
import { expect, test } from "../fixtures/test";
import { createTestWallet } from "../fixtures/testWallet";
import { lookalikeOf } from "../helpers/addresses";
import { badgeBox, expandBadge, onBadgeElement, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { overlapArea } from "../helpers/overlap";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";
import { visualOrder } from "../helpers/visualOrder";

// dApps in Arabic and Persian: the page is laid out right to left, the recipient field sits in a
// right-to-left sentence. presend's words are English and an address is read character by
// character, so the chip, the card and the popup show every address in its true order, and their
// sentences left to right, whatever direction the page gives them.

const used = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const pages = {
  'html dir="rtl" (Arabic)': `<!doctype html><html dir="rtl" lang="ar"><head><meta charset="utf-8"><title>إرسال</title></head><body><h1>إرسال USDC</h1><p>أدخل عنوان المستلم <input id="to" size="50"> ثم اضغط إرسال</p><label for="amount">المبلغ</label> <input id="amount"></body></html>`,
  "direction: rtl on the body only (Persian)": `<!doctype html><html lang="fa"><head><meta charset="utf-8"><title>ارسال</title></head><body style="direction: rtl"><h1>ارسال</h1><label for="to">گیرنده</label> <input id="to" size="50"> <label for="amount">مبلغ</label> <input id="amount"></body></html>`,
};

const noSpace = (text: string) => text.replace(/\s+/g, "");
/** The badge element's text as drawn and as written, spaces aside (a wrapped line drops one). */
async function drawnAndWritten(page: Page, testId: string) {
  return onBadgeElement<{ drawn: string; written: string }>(
    page,
    testId,
    `function () { return { drawn: (${visualOrder.toString()})(this).replace(/\\s+/g, ""), written: this.textContent.replace(/\\s+/g, "") }; }`,
  );
}

for (const [name, html] of Object.entries(pages)) {
  test(`${name}: the chip stays beside the field on screen, the card reads left to right, every address in its true order`, async ({
    context,
    dappUrl,
    serviceWorker,
  }) => {
    await seedCheckedAddress(serviceWorker, used);
    const page = await context.newPage();
    await page.route(/\/rtl\.html$/, (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    await page.goto(`${dappUrl}rtl.html`);
    const lookalike = lookalikeOf(used);
    await pasteInto(page, "#to", lookalike);
    await waitForBadge(page, (b) => b.visible && b.chip === "Lookalike");
    const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
    const field = await page.locator("#to").boundingBox();
    const chip = await badgeBox(page, "chip");
    if (!field) throw new Error("the field is not on screen");
    expect(overlapArea(chip, field)).toBe(0);
    expect(chip.x).toBeGreaterThanOrEqual(0);
    expect(chip.x + chip.width).toBeLessThanOrEqual(viewport.width);
    expect(Math.abs(chip.y + chip.height / 2 - (field.y + field.height / 2))).toBeLessThan(40);
    const slug = name.startsWith("html") ? "html-dir" : "body-only";
    await screenshot(page, `rtl-${slug}-chip`);

    await expandBadge(page);
    const card = await badgeBox(page, "card");
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(viewport.width);
    expect(overlapArea(card, field)).toBe(0);
    // The card's own direction, not the page's: its sentences end with their full stops.
    expect(
      await onBadgeElement(
        page,
        "card",
        "function () { return getComputedStyle(this).direction; }",
      ),
    ).toBe("ltr");
    for (const testId of ["short-address", "address", "lookalike"]) {
      const { drawn, written } = await drawnAndWritten(page, testId);
      expect(drawn, testId).toBe(written);
    }
    expect((await drawnAndWritten(page, "short-address")).drawn).toBe(visibleEnds(lookalike));
    await screenshot(page, `rtl-${slug}-card`);
    await page.close();
  });
}

test("the popup shows the wallet's address in its true order beside a right-to-left wallet name", async ({
  context,
  dappUrl,
  extensionId,
  serviceWorker,
}) => {
  const page = await context.newPage();
  await page.route(/\/rtl\.html$/, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      body: '<!doctype html><html dir="rtl" lang="ar"><head><meta charset="utf-8"></head><body><input id="to"></body></html>',
    }),
  );
  // A wallet that names itself in Arabic (EIP-6963 lets each wallet choose its name).
  const arabic = createTestWallet({ privateKey: generatePrivateKey() });
  await attachOtherWallet(page, arabic, {
    uuid: "5d0e4c1a-8b7f-4e2d-9a3c-6f1b2e3d4c5a",
    name: "محفظتي",
    rdns: "com.example.mahfazati",
  });
  await page.goto(`${dappUrl}rtl.html`);
  const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
  const status = popup.getByTestId("wallet-status");
  await expect(status).toContainText(visibleEnds(arabic.account.address));
  // Drawn: "Wallet: ", the name (right to left), then the address whole; never its "0" split off
  // to the name's other side ("Wallet: 0 <name> x12…").
  const drawn = noSpace(await status.evaluate(visualOrder));
  expect(drawn.endsWith(visibleEnds(arabic.account.address))).toBe(true);
  expect(drawn.startsWith("Wallet:")).toBe(true);
  await screenshot(popup, "popup-rtl-wallet-name");
  await popup.close();
  await page.close();
});
