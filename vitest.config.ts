import { defineConfig } from "vitest/config";

const exclude = ["**/node_modules/**", "**/.output/**", "**/.wxt/**"];

// One runner for every workspace's unit and integration tests; e2e/ runs under Playwright.
export default defineConfig({
  test: {
    // Integration tests start real anvil chains; two cores, so keep the pool small.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["{shared,client,devnet,server,snapshots,docs}/**/*.test.{ts,tsx}"],
          exclude,
          // The files of a worker share one module cache: the server's module graph is imported
          // once per worker, not once per file (that import was over half of the run's time).
          // Nothing here mocks modules or changes globals; each file builds its own servers.
          isolate: false,
          // One local world for the run: files that read the chains take it with sharedWorld(),
          // files that pay take it on a payment lane of their own (sharedPaymentWorld()); a file
          // that changes what others read (the chains' processes, mining, the faucet) starts its
          // own and says why.
          globalSetup: ["./devnet/src/testing/sharedWorldSetup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "extension",
          include: ["extension/**/*.test.{ts,tsx}"],
          exclude,
          // Isolated per file: its tests mock modules (react as preact) and set up DOM globals.
          isolate: true,
        },
      },
    ],
  },
});
