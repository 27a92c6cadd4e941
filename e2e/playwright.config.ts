import { defineConfig } from "@playwright/test";

// The workers run the real server in process, and its modules import JSON without import
// attributes (as tsx and bundlers allow, Node's ESM loader does not): the workers, which inherit
// this environment, load tsx as well.
if (!process.env.NODE_OPTIONS?.includes("--import tsx")) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import tsx`.trim();
}

// One worker: each worker runs its own Chromium with the extension and its own API with five
// anvil chains, and the machine has two cores. All tests share them (see fixtures/test.ts).
export default defineConfig({
  testDir: "./tests",
  globalSetup: "./globalSetup.ts",
  globalTeardown: "./globalTeardown.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "../test-results/e2e",
  use: { trace: "retain-on-failure" },
});
