import { defineConfig } from "vitest/config";

// One runner for every workspace's unit and integration tests; e2e/ runs under Playwright.
export default defineConfig({
  test: {
    include: ["{shared,client,devnet,server,snapshots,extension,docs}/**/*.test.{ts,tsx}"],
    exclude: ["**/node_modules/**", "**/.output/**", "**/.wxt/**"],
    // Integration tests start real anvil chains; two cores, so keep the pool small.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One local world for the run: files that read the chains take it with sharedWorld(), files
    // that pay take it on a payment lane of their own (sharedPaymentWorld()); a file that changes
    // what others read (the chains' processes, mining, the faucet) starts its own and says why.
    globalSetup: ["./devnet/src/testing/sharedWorldSetup.ts"],
  },
});
