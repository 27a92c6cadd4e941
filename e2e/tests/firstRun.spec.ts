import { expect, test } from "../fixtures/test";
import { screenshot } from "../helpers/screenshot";

// A new user's first page: the extension opens it once, on install (each worker's Chromium is a
// fresh profile, so it is there from the start).

test("the first-run page opens on install and explains the chip, the price and the signature, with a screenshot", async ({
  context,
  extensionId,
}) => {
  const welcomeUrl = `chrome-extension://${extensionId}/welcome.html`;
  await expect.poll(() => context.pages().some((p) => p.url() === welcomeUrl)).toBe(true);
  const page = context.pages().find((p) => p.url() === welcomeUrl);
  if (!page) throw new Error("no first-run page");
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.reload();
  await expect(page.getByTestId("welcome-chip")).toContainText("not checked yet");
  await expect(page.getByTestId("welcome-price")).toContainText("$0.01");
  await expect(page.getByTestId("welcome-price")).toContainText("$0.05");
  await expect(page.getByTestId("welcome-price")).toContainText(
    "never spend more than $1.00 a day",
  );
  await expect(page.getByTestId("welcome-signature")).toContainText("TransferWithAuthorization");
  const image = page.getByRole("img");
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await screenshot(page, "first-run-page");
  // Only once: the page is the install's, not every start's.
  expect(context.pages().filter((p) => p.url() === welcomeUrl)).toHaveLength(1);
});
