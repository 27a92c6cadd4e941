import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `npm run build -w extension` puts the unpacked Chromium extension. */
export const extensionDir = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../extension/.output/chrome-mv3",
);
