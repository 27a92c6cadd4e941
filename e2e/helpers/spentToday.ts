import { expect, type Page } from "@playwright/test";

/**
 * Expects the options page's line of today's spending against the cap to read `expected`
 * (waiting for it: the page fills in the amount and the cap as its storage reads arrive).
 */
export async function expectSpentToday(options: Page, expected: string): Promise<void> {
  await expect(options.getByTestId("spent-today")).toContainText(expected);
}
