import type { Page } from "@playwright/test";

// Extension pages forbid eval (their CSP), so the name of a control is written out in each
// function the page runs, the same in both: its label, name, data-action or first words.

/** The controls a Tab can reach in an extension page (a disabled one it cannot). */
const controls =
  "a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary";

/**
 * Tabs through `page` from its first control and returns the controls the focus reached (by
 * name), each with whether the browser brought it into the window once focused.
 * @example expect((await tabThrough(page, 12)).filter((r) => !r.inView)).toEqual([])
 */
export async function tabThrough(page: Page, presses: number) {
  const reached: Array<{ name: string; inView: boolean }> = [];
  await page.locator(controls).first().focus();
  for (let press = 0; press < presses; press++) {
    if (press > 0) await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return null;
      const rect = active.getBoundingClientRect();
      return {
        name:
          active.getAttribute("aria-label") ??
          active.getAttribute("name") ??
          active.dataset.action ??
          (active.textContent ?? "").trim().slice(0, 40),
        // A text box shows where its caret is (its first line), not always all of its rows.
        inView:
          rect.top >= 0 &&
          rect.left >= 0 &&
          rect.right <= innerWidth &&
          (rect.bottom <= innerHeight || active.localName === "textarea"),
      };
    });
    if (!focused) break;
    reached.push(focused);
  }
  return reached;
}

/** The names of the visible controls a Tab should reach in `page` (as tabThrough names them). */
export function tabbableNames(page: Page): Promise<string[]> {
  return page
    .locator(controls)
    .evaluateAll((found) =>
      found
        .filter((e) => e.checkVisibility())
        .map(
          (active) =>
            active.getAttribute("aria-label") ??
            active.getAttribute("name") ??
            (active as HTMLElement).dataset.action ??
            (active.textContent ?? "").trim().slice(0, 40),
        ),
    );
}
