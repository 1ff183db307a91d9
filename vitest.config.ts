import { defineConfig } from "vitest/config";
import { E2E, UNIT } from "./test/setup/projects.ts";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: end-to-end files start servers and browsers, so keep the parallelism modest.
    maxWorkers: 2,
    // `vitest run` runs both; `--project unit` the fast ones alone (test/setup/projects.ts says which).
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
          // The command the end-to-end tests start runs the compiled program (lib/).
          globalSetup: ["test/setup/compile.ts"],
        },
      },
    ],
  },
});
