import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: end-to-end files start servers and browsers, so keep the parallelism modest.
    maxWorkers: 2,
    // fast-check's fixed seed, in every test file of both projects.
    setupFiles: ["test/setup/fast-check.ts"],
    // What the command sets at its entry (src/cli/main.ts) for the tests that call build() in
    // this process: Eleventy loads without Node's resolve hooks, as it does under the command.
    env: { ELEVENTY_SKIP_ESM_RESOLVER: "true" },
    // `vitest run` runs both; `--project unit` the fast ones alone. A test file says its kind in its
    // name (`*.unit.test.ts`, `*.e2e.test.ts`); test/projects.unit.test.ts fails on one that does not.
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.unit.test.ts"] } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.test.ts"],
          // The command the end-to-end tests start runs the compiled program (lib/).
          globalSetup: ["test/setup/compile.ts"],
        },
      },
    ],
  },
});
