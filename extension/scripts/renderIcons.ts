// Renders presend's icon (shared/brand/presendIcon, which the API serves as its favicon too) to
// the PNG sizes browsers ask for (public/icon/<size>.png, which WXT puts in the manifest). Run
// after changing the SVG: npx tsx scripts/renderIcons.ts
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { presendIconSvg as svg } from "@presend/shared/brand/presendIcon";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage();
for (const size of [16, 32, 48, 128]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<body style="margin:0;background:transparent">${svg.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body>`,
  );
  await page.screenshot({ path: join(root, `public/icon/${size}.png`), omitBackground: true });
}
await browser.close();
