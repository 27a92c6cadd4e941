import { defineConfig } from "@playwright/test";

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
