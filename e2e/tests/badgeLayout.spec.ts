import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { badgeBox, clickBadgeButton, expandBadge, readBadge, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { screenshot } from "../helpers/screenshot";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 360, height: 640 },
]) {
  test(`at ${viewport.width}x${viewport.height} the chip covers none of the form's controls`, async ({
    context,
    dappUrl,
  }) => {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    await page.goto(`${dappUrl}form.html`);
    await pasteInto(page, "#to", address);
    await waitForBadge(page, (b) => b.visible && b.chip === "Checksum OK · not checked");
    const chip = await badgeBox(page, "chip");
    for (const control of ["#amount", "#send", "label[for=amount]"]) {
      expect(overlaps(chip, await box(page, control)), control).toBe(false);
    }
    // Beside the field, or just above its right end when the screen is too narrow.
    const field = await box(page, "#to");
    expect(chip.y).toBeGreaterThanOrEqual(field.y - chip.height - 4);
    expect(chip.y + chip.height).toBeLessThanOrEqual(field.y + field.height + 1);
    expect(chip.x + chip.width).toBeLessThanOrEqual(viewport.width);
    if (viewport.width === 360) expect(overlaps(chip, field)).toBe(false);
    await screenshot(page, `chip-${viewport.width}x${viewport.height}`);
    // The Amount field behind the chip's row still takes a click.
    await page.locator("#amount").click();
    await expect(page.locator("#amount")).toBeFocused();
    await page.close();
  });
}

test("Escape and a click outside collapse the card back to the chip", async ({ dapp }) => {
  await pasteInto(dapp, "#to", address);
  await expandBadge(dapp);
  await dapp.keyboard.press("Escape");
  await waitForBadge(dapp, (b) => !b.expanded && b.chip === "Checksum OK · not checked");
  await expandBadge(dapp);
  await dapp.mouse.click(900, 600);
  const collapsed = await waitForBadge(dapp, (b) => !b.expanded);
  expect(collapsed.visible).toBe(true);
});

test("keyboard: Tab from the field reaches the chip, Enter opens the card, Tab leaves to the next field", async ({
  context,
  dappUrl,
}) => {
  const page = await context.newPage();
  await page.goto(`${dappUrl}form.html`);
  await pasteInto(page, "#to", address);
  await waitForBadge(page, (b) => b.visible);
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.localName)).toBe("presend-badge");
  await page.keyboard.press("Enter");
  const card = await waitForBadge(page, (b) => b.expanded);
  expect(card.byTestId.address).toBe(address);
  // Escape inside the card collapses it and keeps the focus on the chip.
  await page.keyboard.press("Escape");
  await waitForBadge(page, (b) => !b.expanded);
  expect(await page.evaluate(() => document.activeElement?.localName)).toBe("presend-badge");
  // Tab past the badge lands on the field after the recipient, as without the badge.
  await page.keyboard.press("Tab");
  await expect(page.locator("#amount")).toBeFocused();
  // Shift+Tab from Amount goes back through the page's own order (the recipient field).
  await page.keyboard.press("Shift+Tab");
  await expect(page.locator("#to")).toBeFocused();
  await page.close();
});

test("screen readers get a labelled button that says what it opens, and a labelled dialog", async ({
  dapp,
}) => {
  await pasteInto(dapp, "#to", address.toLowerCase());
  await waitForBadge(dapp, (b) => b.visible);
  // The closed root is reached through the DevTools protocol's accessibility tree.
  const session = await dapp.context().newCDPSession(dapp);
  const names = async () => {
    const { nodes } = (await session.send("Accessibility.getFullAXTree")) as {
      nodes: { role?: { value?: string }; name?: { value?: string } }[];
    };
    return nodes.map((n) => `${n.role?.value}: ${n.name?.value ?? ""}`);
  };
  expect(await names()).toContainEqual(
    expect.stringMatching(/^button: presend: No checksum for 0xd8da…6045\. Show details$/),
  );
  await expandBadge(dapp);
  expect(await names()).toContainEqual(
    expect.stringMatching(/^dialog: presend check of 0xd8da…6045$/),
  );
  expect(await names()).toContainEqual("button: Dismiss presend for this address");
  await session.detach();
});

test("dismissing the badge keeps it away for that value; a new paste brings it back", async ({
  dapp,
}) => {
  await pasteInto(dapp, "#to", address);
  await expandBadge(dapp);
  await clickBadgeButton(dapp, "close");
  await waitForBadge(dapp, (b) => !b.visible);
  await dapp.locator("body").click({ position: { x: 5, y: 5 } });
  await dapp.waitForTimeout(600);
  expect((await readBadge(dapp)).visible).toBe(false);
  await dapp.locator("#to").fill("");
  await pasteInto(dapp, "#to", address);
  await waitForBadge(dapp, (b) => b.visible);
});
