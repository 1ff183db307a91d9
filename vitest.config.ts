import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: end-to-end files start servers and browsers, so keep the parallelism modest.
    maxWorkers: 2,
  },
});
