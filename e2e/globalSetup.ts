import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { extensionDir } from "./extensionDir";
import { startMetrics } from "./metrics";

// `npm run e2e` builds the extension first; a bare `playwright test` builds it only if missing.
export default function globalSetup(): void {
  startMetrics();
  if (existsSync(join(extensionDir, "manifest.json"))) return;
  execFileSync("npm", ["run", "build", "-w", "extension"], {
    cwd: join(extensionDir, "../../.."),
    stdio: "inherit",
  });
}
