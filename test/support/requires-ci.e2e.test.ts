import { execFile } from "node:child_process";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/catalogue.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MISSING = "catalogue-test-no-such-tool";

/**
 * A run of vitest as `npm test` makes it, on a test file whose suite needs a missing program:
 * what the run's exit status and the summary line (scripts/test-summary.mjs) say.
 */
describe("a suite needing a missing program, run by vitest", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir("catalogue-requires-"));
    await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    await mkdir(path.join(dir, "test-results"));
    const helper = path.relative(dir, path.join(import.meta.dirname, "requires.ts"));
    await writeFile(
      path.join(dir, "needs.test.ts"),
      [
        `import { describe, it, expect } from "vitest";`,
        `import { requireTool } from ${JSON.stringify(helper)};`,
        `describe("always", () => { it("passes", () => expect(1).toBe(1)); });`,
        `describe.runIf(requireTool(${JSON.stringify(MISSING)}, "the tests of the missing tool") !== null)("needs it", () => {`,
        `  it("would pass", () => expect(1).toBe(1));`,
        `});`,
      ].join("\n"),
    );
    await writeFile(
      path.join(dir, "vitest.config.ts"),
      `export default { test: { include: ["needs.test.ts"] } };\n`,
    );
  }, 60_000);
  afterAll(() => cleanup?.());

  async function runVitest(ci: string | undefined) {
    // The child is a run of its own: none of this run's vitest settings, the CI setting asked for.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^(VITEST|CI$|NODE_OPTIONS$)/.test(key)),
    );
    if (ci !== undefined) env.CI = ci;
    const vitest = path.join(ROOT, "node_modules/vitest/vitest.mjs");
    const args = [
      vitest,
      "run",
      "--reporter=default",
      "--reporter=json",
      "--outputFile=test-results/vitest.json",
    ];
    const test = await promisify(execFile)(process.execPath, args, { cwd: dir, env }).then(
      (out) => ({ code: 0, output: out.stdout + out.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        output: error.stdout + error.stderr,
      }),
    );
    const summary = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, "scripts/test-summary.mjs")],
      { cwd: dir },
    ).then(
      (out) => ({ code: 0, stdout: out.stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    return {
      test,
      summary,
      report: JSON.parse(await readFile(path.join(dir, "test-results/vitest.json"), "utf8")),
    };
  }

  it("fails the run under CI=true, saying what is missing", async () => {
    const { test, summary } = await runVitest("true");
    expect(test.code).toBe(1);
    expect(test.output).toContain(
      `${MISSING} is missing and CI is set, so the tests of the missing tool fail instead of skipping`,
    );
    expect(summary.code).toBe(1);
    expect(summary.stdout).toBe(
      `0 passed, 0 failed, 0 skipped\n1 test file(s) failed outside their tests:\n  needs.test.ts: ${MISSING} is missing and CI is set, so the tests of the missing tool fail instead of skipping: install Debian's ${MISSING} (.ci/run does)\n`,
    );
  }, 60_000);

  it("skips the suite elsewhere, with the reason printed, and the run passes", async () => {
    const { test, summary, report } = await runVitest(undefined);
    expect(test.code).toBe(0);
    expect(test.output).toContain(
      `${MISSING} is missing: the tests of the missing tool are SKIPPED`,
    );
    expect([report.numPassedTests, report.numPendingTests]).toEqual([1, 1]);
    expect(summary).toEqual({ code: 0, stdout: "1 passed, 0 failed, 1 skipped\n" });
  }, 60_000);
});
