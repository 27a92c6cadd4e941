import { defineConfig } from "vitest/config";

// `npm run test:scale`: the fleet on one machine (not part of `npm test`; .ci/run runs it after).
export default defineConfig({
  test: {
    include: ["server/scale/**/*.scale.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
