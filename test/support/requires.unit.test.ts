import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { tempDir } from "../helpers/catalogue.ts";
import { findTool, inCI, MissingTool, requireTool } from "./requires.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MISSING = "catalogue-test-no-such-tool";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("inCI", () => {
  it("is set by CI=true or 1, not by an empty, 0 or false value", () => {
    expect(["true", "TRUE", "1"].map((CI) => inCI({ CI }))).toEqual([true, true, true]);
    expect([undefined, "", "0", "false", "False"].map((CI) => inCI({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("findTool", () => {
  it("finds a program in PATH, takes an absolute path as it is, and gives null for one nowhere", () => {
    expect(findTool("node", { PATH: path.dirname(process.execPath) })).toBe(
      path.join(path.dirname(process.execPath), "node"),
    );
    expect(findTool(process.execPath, { PATH: "" })).toBe(process.execPath);
    expect(findTool(MISSING)).toBeNull();
    expect(findTool(path.join(ROOT, MISSING))).toBeNull();
  });

  it("does not take a file that cannot be run", () => {
    expect(findTool(path.join(ROOT, "package.json"))).toBeNull();
  });
});

describe("requireTool", () => {
  it("throws under CI when the program is missing, naming it, what needs it and what to install", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(() =>
      requireTool(MISSING, "the tests of something", { PATH: "/nowhere", CI: "true" }),
    ).toThrow(MissingTool);
    expect(() => requireTool("/nowhere/chromium", "the browser tests", { CI: "true" })).toThrow(
      "/nowhere/chromium is missing and CI is set, so the browser tests fail instead of skipping: install Debian's chromium (.ci/run does)",
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("outside CI gives null and prints why the tests are skipped", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(requireTool(MISSING, "the tests of something", { PATH: "/nowhere" })).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toContain(
      `${MISSING} is missing: the tests of something are SKIPPED (under CI=true they fail)`,
    );
  });

  it("gives the program's path when it is there, in CI or not", () => {
    const dir = path.dirname(process.execPath);
    for (const CI of ["true", ""])
      expect(requireTool("node", "the tests", { PATH: dir, CI })).toBe(path.join(dir, "node"));
  });
});

describe("the test files", () => {
  it("skip only through requireTool (directly, or through the servers' list of serve/servers.ts)", async () => {
    const test = path.join(ROOT, "test");
    const problems: string[] = [];
    for (const entry of await readdir(test, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (
        !entry.isFile() ||
        !entry.name.endsWith(".ts") ||
        path.dirname(file) === import.meta.dirname
      )
        continue;
      const source = await readFile(file, "utf8");
      const skips =
        source.match(
          /\b(?:describe|it|test|suite)\.(?:skip|skipIf|runIf|todo)\b|\b(?:ctx|context)\.skip\(/g,
        ) ?? [];
      if (skips.length > 0 && !/\b(?:requireTool|availableServers)\b/.test(source))
        problems.push(`${path.relative(ROOT, file)}: ${skips.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });
});

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
