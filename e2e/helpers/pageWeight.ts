import { type BrowserContext, chromium, type Page } from "@playwright/test";
import { chromiumPath } from "../fixtures/launchChromium";

// What the extension costs a heavy page, measured against the same page in the same Chromium
// without the extension: ratios, not absolute milliseconds (the machine is shared).

/** Runs `measure` on a fresh page of a Chromium without the extension. */
export async function withoutExtension<T>(measure: (page: Page) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
  });
  try {
    return await measure(await browser.newPage());
  } finally {
    await browser.close();
  }
}

const fillPage = (fields: number) => `<!doctype html>
<title>Address book</title>
<button id="fill" style="position:fixed;top:8px;left:8px">Fill the address book</button>
<div id="book" style="margin-top:48px"></div>
<script>
  // Every field filled by script (no input event), thousands at once, on one click.
  document.getElementById("fill").addEventListener("click", () => {
    const book = document.getElementById("book");
    for (let i = 0; i < ${fields}; i++) {
      const input = document.createElement("input");
      input.value = "0x" + (i + 1).toString(16).padStart(40, "0");
      book.append(input);
    }
  });
</script>`;

/**
 * Thousands of script-filled fields: the page fills `fields` inputs with addresses on one click
 * (then the person clicks once more in the page), and this returns the main thread's blocked
 * time (long tasks, ms) over the two seconds after the first click.
 */
export async function scriptFilledFieldsStall(page: Page, origin: string, fields: number) {
  const url = `${origin}weight/fill.html`;
  await page.route(url, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: fillPage(fields) }),
  );
  await page.goto(url);
  await page.evaluate(() => {
    const state = globalThis as unknown as { blocked: number };
    state.blocked = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.blocked += entry.duration;
    }).observe({ type: "longtask" });
  });
  await page.mouse.click(20, 18);
  await page.waitForTimeout(500);
  await page.mouse.click(400, 18);
  await page.waitForTimeout(1_500);
  return page.evaluate(() => (globalThis as unknown as { blocked: number }).blocked);
}

const framePage = `<!doctype html><form><label>Send to <input name="to"></label><button>Send</button></form>`;
const framesPage = (frames: number) => `<!doctype html>
<title>Many frames</title>
${Array.from({ length: frames }, (_, i) => `<iframe src="frame.html?${i}" width="120" height="40"></iframe>`).join("")}`;

/** A page of `frames` same-origin frames, each a small send form: its load time in ms. */
export async function manyFramesLoad(page: Page, origin: string, frames: number) {
  const base = `${origin}weight/`;
  await page.route(`${base}**`, (route) => {
    const body = route.request().url().includes("frame.html") ? framePage : framesPage(frames);
    return route.fulfill({ contentType: "text/html; charset=utf-8", body });
  });
  await page.goto(`${base}frames.html`, { waitUntil: "load", timeout: 60_000 });
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType(
      "navigation",
    ) as PerformanceNavigationTiming[];
    return navigation ? navigation.loadEventEnd - navigation.startTime : -1;
  });
}

/** A page of the extension's context, closed after `measure`. */
export async function withExtension<T>(
  context: BrowserContext,
  measure: (page: Page) => Promise<T>,
): Promise<T> {
  const page = await context.newPage();
  try {
    return await measure(page);
  } finally {
    await page.close();
  }
}

/**
 * Counts the extension's scripts as Chromium parses them in `page` and its frames (content
 * scripts run in isolated worlds the page cannot see; the debugger sees every world), by path
 * inside the extension. Start it before the page loads.
 */
export async function countExtensionScripts(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  const counts = new Map<string, number>();
  cdp.on("Debugger.scriptParsed", ({ url }) => {
    const path = /^chrome-extension:\/\/[^/]+(\/.*)$/.exec(url)?.[1];
    if (path) counts.set(path, (counts.get(path) ?? 0) + 1);
  });
  await cdp.send("Debugger.enable");
  return { parsed: (path: string) => counts.get(path) ?? 0 };
}
