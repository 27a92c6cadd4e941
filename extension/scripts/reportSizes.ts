// Prints what the built content scripts weigh (raw and gzip) and fails the build when the
// script every page gets grows past its budget.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const outDir = join(dirname(fileURLToPath(import.meta.url)), "../.output/chrome-mv3");
/** The isolated content script runs in every frame of every page: 60 kB gzip at most. */
const contentBudget = 60 * 1024;

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
let over = false;
for (const [name, file] of [
  ["content script (isolated, every frame)", "content-scripts/content.js"],
  ["send observer (MAIN world, every frame)", "content-scripts/send-observer.js"],
  ["wallet bridge (MAIN world, injected when the page wallet is needed)", "wallet-bridge.js"],
] as const) {
  const bytes = readFileSync(join(outDir, file));
  const gzip = gzipSync(bytes).length;
  const budget = file.endsWith("content.js") ? ` (budget ${kB(contentBudget)})` : "";
  console.log(`${name}: ${kB(bytes.length)}, ${kB(gzip)} gzip${budget}`);
  if (budget && gzip > contentBudget) over = true;
}
if (over) {
  console.error("The content script is over its gzip budget.");
  process.exit(1);
}
