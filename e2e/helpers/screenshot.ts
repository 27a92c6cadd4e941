import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";

/** Where the e2e run leaves a PNG of each badge, card and popup state. */
export const screenshotDir = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../test-results/screens",
);

/** Saves what `page` shows now as test-results/screens/<name>.png (the closed badge included). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}
