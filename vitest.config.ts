import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The command the end-to-end tests start runs the compiled program (lib/).
    globalSetup: ["test/setup/compile.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: end-to-end files start servers and browsers, so keep the parallelism modest.
    maxWorkers: 2,
  },
});
