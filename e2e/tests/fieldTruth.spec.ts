import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { expandBadge, readBadge, waitForBadge } from "../helpers/badge";
import { pasteInto } from "../helpers/enterAddress";
import { screenshot } from "../helpers/screenshot";

// The badge speaks about what the field holds, not about what was pasted or typed into it.

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

async function openForm(context: BrowserContext, dappUrl: string, query = ""): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${dappUrl}form.html${query}`);
  return page;
}

test("a field that lower-cases input: the badge says 'no checksum', not the pasted text's status", async ({
  context,
  dappUrl,
}) => {
  const page = await openForm(context, dappUrl);
  await pasteInto(page, "#lower", address);
  await expect(page.locator("#lower")).toHaveValue(address.toLowerCase());
  const badge = await waitForBadge(page, (b) => b.visible && b.status === "missing");
  expect(badge.chip).toBe("No checksum");
  const card = await expandBadge(page);
  expect(card.byTestId.address).toBe(address.toLowerCase());
  await page.close();
});

test("a value a page script sets (address book button) gets a badge", async ({
  context,
  dappUrl,
}) => {
  const page = await openForm(context, dappUrl);
  await page.locator("#pick").click();
  await expect(page.locator("#book")).toHaveValue("0x000000000000000000000000000000000000dEaD");
  const badge = await waitForBadge(page, (b) => b.visible && b.chip === "Burn address");
  expect(badge.localLevel).toBe("danger");
  await screenshot(page, "chip-script-set-burn");
  await page.close();
});

test("a field the page re-renders keeps its badge on the new element", async ({
  context,
  dappUrl,
}) => {
  const page = await openForm(context, dappUrl);
  const before = await page.locator("#rerender").elementHandle();
  await pasteInto(page, "#rerender", address);
  await page.waitForFunction((old) => !old?.isConnected, before);
  await page.waitForTimeout(400);
  const badge = await waitForBadge(
    page,
    (b) => b.visible && b.chip === "Checksum OK · not checked",
  );
  expect(badge.visible).toBe(true);
  await page.close();
});

test("a field replaced by a chip of the address keeps its badge beside the chip", async ({
  context,
  dappUrl,
}) => {
  const page = await openForm(context, dappUrl);
  await pasteInto(page, "#to-chip", address);
  await expect(page.locator("#recipient-chip")).toHaveText(address);
  await page.waitForTimeout(400);
  const badge = await waitForBadge(
    page,
    (b) => b.visible && b.chip === "Checksum OK · not checked",
  );
  expect(badge.visible).toBe(true);
  await page.close();
});

test("a field turned into a chip in the same moment the address arrives gets its badge beside the chip", async ({
  context,
  dappUrl,
}) => {
  // The badge's own code loads while the page replaces the field: the badge shows beside what
  // took the field's place, not beside a field that is gone.
  const page = await openForm(context, dappUrl);
  await pasteInto(page, "#to-chip-now", address);
  await expect(page.locator("#recipient-chip-now")).toHaveText(address);
  const badge = await waitForBadge(
    page,
    (b) => b.visible && b.chip === "Checksum OK · not checked",
  );
  // Still there after the field follower's next re-reads.
  await page.waitForTimeout(600);
  expect(await readBadge(page)).toMatchObject({ visible: true, chip: badge.chip });
  await screenshot(page, "chip-replaced-at-once");
  await page.close();
});

test("editing the address away hides the badge; editing it to another address follows", async ({
  context,
  dappUrl,
}) => {
  const page = await openForm(context, dappUrl);
  await pasteInto(page, "#to", address);
  await waitForBadge(page, (b) => b.visible && b.status === "valid");
  // A script rewrites the value without any event: the badge follows within a moment.
  await page.locator("#to").evaluate((input, value) => {
    (input as HTMLInputElement).value = value;
  }, address.toLowerCase());
  await waitForBadge(page, (b) => b.visible && b.status === "missing");
  await page.locator("#to").fill("");
  await waitForBadge(page, (b) => !b.visible);
  await page.close();
});
