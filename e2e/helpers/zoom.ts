import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { screenshotDir } from "./screenshot";

export type ZoomedPage = {
  /** Saves what the page shows now, at its zoomed size, as test-results/screens/<name>.png. */
  screenshot(name: string): Promise<void>;
};

/**
 * Shows `page` as the browser does at `percent` zoom in a window of `width` × `height` device
 * pixels: CSS pixels grow by the zoom, so the layout gets a viewport that much narrower and
 * lower, and devicePixelRatio says the zoom (as Chromium's page zoom does). Playwright's own
 * screenshot and viewport calls put its metrics back, so the zoomed page is shot through the
 * same DevTools session.
 */
export async function emulateZoom(
  page: Page,
  { width, height, percent }: { width: number; height: number; percent: number },
): Promise<ZoomedPage> {
  const session = await page.context().newCDPSession(page);
  const scale = percent / 100;
  await session.send("Emulation.setDeviceMetricsOverride", {
    width: Math.round(width / scale),
    height: Math.round(height / scale),
    deviceScaleFactor: scale,
    mobile: false,
  });
  return {
    async screenshot(name) {
      const { data } = (await session.send("Page.captureScreenshot", { format: "png" })) as {
        data: string;
      };
      mkdirSync(screenshotDir, { recursive: true });
      writeFileSync(join(screenshotDir, `${name}.png`), Buffer.from(data, "base64"));
    },
  };
}
