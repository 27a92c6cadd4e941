import type { Page } from "@playwright/test";
import { type BadgeTarget, badgeBox } from "./badge";

export type Box = { x: number; y: number; width: number; height: number };

/** The area two boxes share (0 when they do not touch). */
export function overlapArea(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** Every visible control of the page (buttons, fields, links), by a readable name, with its box. */
export async function visibleControls(page: Page): Promise<Array<{ name: string; box: Box }>> {
  return page.evaluate(() => {
    const selector =
      'button,input,select,textarea,a[href],[role="button"],[contenteditable="true"]';
    return [...document.querySelectorAll(selector)]
      .filter((element) => element.checkVisibility())
      .map((element) => {
        const r = element.getBoundingClientRect();
        const name = `${element.localName}${element.id ? `#${element.id}` : ""} ${(element.textContent ?? "").trim().slice(0, 30)}`;
        return { name, box: { x: r.x, y: r.y, width: r.width, height: r.height } };
      })
      .filter(
        ({ box }) => box.width * box.height > 0 && box.y < innerHeight && box.y + box.height > 0,
      );
  });
}

/** The controls the badge element (chip or card) covers, with the area covered. */
export async function coveredControls(
  page: Page,
  part: "chip" | "card",
  except: string[] = [],
): Promise<string[]> {
  const badge = await badgeBox(page as BadgeTarget, part);
  return (await visibleControls(page))
    .filter(({ name }) => !except.some((e) => name.startsWith(e)))
    .map(({ name, box }) => ({ name, area: overlapArea(badge, box) }))
    .filter(({ area }) => area > 0)
    .map(({ name, area }) => `${name} (${Math.round(area)} px²)`);
}
