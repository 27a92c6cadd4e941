import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

// Figures the e2e run measures, for the closing notes: tests write parts, the global teardown
// joins them with the built script sizes and the suite's wall time into one JSON file.

const resultsDir = resolve(dirname(fileURLToPath(import.meta.url)), "../test-results");
const partsDir = join(resultsDir, "e2e-metrics");
/** The joined figures. */
export const metricsFile = join(resultsDir, "e2e-metrics.json");
const startFile = join(partsDir, "started-at");

/** Called by the global setup: a clean slate and the start time. */
export function startMetrics(): void {
  rmSync(partsDir, { recursive: true, force: true });
  mkdirSync(partsDir, { recursive: true });
  writeFileSync(startFile, String(Date.now()));
}

/** Records one figure (any JSON value) under `name`. */
export function recordMetric(name: string, value: unknown): void {
  mkdirSync(partsDir, { recursive: true });
  writeFileSync(join(partsDir, `${name}.json`), JSON.stringify(value));
}

/** Median and spread of latency samples in ms. */
export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? -1;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    samplesMs: samples.map(round),
    p50Ms: round(at(0.5)),
    minMs: round(sorted[0] ?? -1),
    maxMs: round(sorted.at(-1) ?? -1),
  };
}

function fileSize(path: string) {
  const bytes = readFileSync(path);
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
}

/** Sizes of the built scripts: each entry's own file, and the popup with the chunks it loads. */
function scriptSizes(extensionDir: string) {
  const popupHtml = readFileSync(join(extensionDir, "popup.html"), "utf8");
  const popupFiles = [...popupHtml.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) =>
    join(extensionDir, (m[1] as string).replace(/^\//, "")),
  );
  const popupParts = popupFiles.map(fileSize);
  return {
    content: fileSize(join(extensionDir, "content-scripts/content.js")),
    // Every frame: the two content scripts (the isolated one a small loader). Once a frame has a
    // field in use: the page runtime. Only once an address is entered: the card (verdict UI).
    // Only when the page wallet is needed: the bridge.
    pageRuntime: fileSize(join(extensionDir, "page-runtime.js")),
    sendObserver: fileSize(join(extensionDir, "content-scripts/send-observer.js")),
    verdictUi: fileSize(join(extensionDir, "verdict-ui.js")),
    walletBridge: fileSize(join(extensionDir, "wallet-bridge.js")),
    background: fileSize(join(extensionDir, "background.js")),
    popup: {
      bytes: popupParts.reduce((sum, p) => sum + p.bytes, 0),
      gzipBytes: popupParts.reduce((sum, p) => sum + p.gzipBytes, 0),
      files: popupFiles.map((f) => f.slice(extensionDir.length + 1)),
    },
  };
}

/** Called by the global teardown: joins the parts, writes metricsFile and returns it. */
export function finishMetrics(extensionDir: string): Record<string, unknown> {
  const startedAt = Number(readFileSync(startFile, "utf8"));
  const figures: Record<string, unknown> = {};
  for (const file of readdirSync(partsDir).filter((f) => f.endsWith(".json"))) {
    figures[file.replace(/\.json$/, "")] = JSON.parse(readFileSync(join(partsDir, file), "utf8"));
  }
  const joined = {
    measuredAt: new Date().toISOString(),
    e2eWallTimeMs: Date.now() - startedAt,
    ...figures,
    builtScripts: scriptSizes(extensionDir),
    builtAt: statSync(join(extensionDir, "manifest.json")).mtime.toISOString(),
  };
  writeFileSync(metricsFile, `${JSON.stringify(joined, null, 2)}\n`);
  return joined;
}
