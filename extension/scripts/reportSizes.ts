// Prints what the built page scripts weigh (raw and gzip) and fails the build when one with a
// budget grows past it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const outDir = join(dirname(fileURLToPath(import.meta.url)), "../.output/chrome-mv3");
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

// Budgets sit a little above today's weight, so growth is a decision, not an accident. The
// loader runs in every frame of every page; the runtime (the badge, storage, messaging) once a
// frame has a field in use; the card on the first address entered.
const scripts: { name: string; file: string; budget?: number }[] = [
  {
    name: "content script loader (isolated, every frame)",
    file: "content-scripts/content.js",
    budget: 5 * 1024,
  },
  {
    name: "page runtime (isolated, imported when a frame has a field in use)",
    file: "page-runtime.js",
    budget: 55 * 1024,
  },
  {
    name: "verdict UI (isolated, imported on the first address entered)",
    file: "verdict-ui.js",
    budget: 20 * 1024,
  },
  { name: "send observer (MAIN world, every frame)", file: "content-scripts/send-observer.js" },
  {
    name: "wallet bridge (MAIN world, injected when the page wallet is needed)",
    file: "wallet-bridge.js",
  },
];

let over = false;
for (const { name, file, budget } of scripts) {
  const bytes = readFileSync(join(outDir, file));
  const gzip = gzipSync(bytes).length;
  const limit = budget === undefined ? "" : ` (budget ${kB(budget)})`;
  console.log(`${name}: ${kB(bytes.length)}, ${kB(gzip)} gzip${limit}`);
  if (budget !== undefined && gzip > budget) {
    console.error(`${name} is over its gzip budget.`);
    over = true;
  }
}
if (over) process.exit(1);
