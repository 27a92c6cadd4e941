import type { Frame, Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { detailsInSidePanel } from "../helpers/sidePanel";

// Safe apps and swap or bridge widgets live in iframes: each frame gets its own badge with the
// same free checks, and pays (or says it cannot) with that frame's own wallet.

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

async function frameNamed(page: Page, name: string): Promise<Frame> {
  await expect.poll(() => page.frame({ name })?.url() ?? "").not.toBe("");
  const frame = page.frame({ name });
  if (!frame) throw new Error(`no frame ${name}`);
  await frame.waitForLoadState("load");
  await frame.locator("#to").waitFor();
  return frame;
}

for (const name of ["same", "cross", "srcdoc"] as const) {
  test(`a ${name === "same" ? "same-origin" : name === "cross" ? "cross-origin" : "srcdoc"} iframe gets the badge and its free checks`, async ({
    context,
    dappUrl,
  }) => {
    const page = await context.newPage();
    await page.goto(`${dappUrl}frames.html`);
    const frame = await frameNamed(page, name);
    if (name === "cross") expect(new URL(frame.url()).hostname).toBe("localhost");
    if (name === "srcdoc") expect(frame.url()).toBe("about:srcdoc");
    await pasteInto(frame, "#to", address.toLowerCase());
    const chip = await waitForBadge(frame, (b) => b.visible && b.status === "missing");
    expect(chip.chip).toBe("No checksum");
    // The badge is the frame's own: the top page has none.
    expect(await page.evaluate(() => document.querySelector("presend-badge"))).toBeNull();
    await frame.locator("#to").fill("");
    await pasteInto(frame, "#to", "0x0000000000000000000000000000000000000000");
    await waitForBadge(frame, (b) => b.visible && b.chip === "Zero address");
    if (name === "cross") await screenshot(page, "frame-cross-origin-chip");
    await page.close();
  });
}

// A widget frame (600x300 here) has no room for the card: its chip opens the side panel.
test("a frame without a wallet says how to pay instead of offering a check that cannot work", async ({
  context,
  dappUrl,
  extensionId,
  serviceWorker,
}) => {
  const page = await context.newPage();
  await page.goto(`${dappUrl}frames.html`);
  const frame = await frameNamed(page, "cross");
  await pasteInto(frame, "#to", address);
  await waitForBadge(frame, (b) => b.visible);
  const panel = await detailsInSidePanel(frame, serviceWorker, extensionId);
  const card = panel.getByTestId("side-panel");
  await expect(card.getByTestId("wallet-notice")).toContainText("frame with no wallet of its own");
  await expect(card.getByTestId("address")).toHaveText(address);
  await expect(card.getByRole("button", { name: "Check $0.01" })).toBeDisabled();
  await screenshot(panel, "frame-no-wallet-card");
  await panel.close();
  await page.close();
});

test("a frame with its own wallet pays from that wallet: the check is signed there and charged once", async ({
  api,
  context,
  dappUrl,
  wallet,
  extensionId,
  serviceWorker,
}) => {
  const page = await context.newPage();
  await page.exposeFunction("__testWallet", (method: string, params: string) =>
    wallet.bridge(method, params),
  );
  // The top page has no wallet; only the same-origin frame loads one (?wallet=1).
  await page.goto(`${dappUrl}frames.html?wallet=1`);
  const frame = await frameNamed(page, "same");
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  await pasteInto(frame, "#to", activeEoa(api.world));
  await waitForBadge(frame, (b) => b.visible && b.chip !== null);
  const panel = await detailsInSidePanel(frame, serviceWorker, extensionId);
  const card = panel.getByTestId("side-panel");
  const check = card.getByRole("button", { name: "Check $0.01" });
  await expect(check).toBeEnabled();
  await check.click();
  await expect(card.getByTestId("verdict-level")).toHaveText("OK", { timeout: 30_000 });
  await waitForBadge(frame, (b) => b.chip?.startsWith("Looks fine to send") ?? false);
  expect(wallet.signRequests()).toHaveLength(1);
  const after = await balances(api, who);
  expect(after.payer).toBe((before.payer ?? 0n) - 10_000n);
  expect(after.payTo).toBe((before.payTo ?? 0n) + 10_000n);
  await screenshot(panel, "frame-paid-verdict");
  await panel.close();
  await page.close();
});
